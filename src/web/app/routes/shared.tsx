import { useParams } from 'react-router';
import { SharedPage } from '@web/features/subliminals/components/shared-page';

export function Component() {
  return <SharedPage token={useParams().token ?? ''} />;
}
