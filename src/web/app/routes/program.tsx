import { useParams } from 'react-router';
import { ProgramView } from '@web/features/guidance/components/program-view';

export function Component() {
  const { slug = '' } = useParams();
  return <ProgramView key={slug} slug={slug} />;
}
