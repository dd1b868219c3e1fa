import { useParams } from 'react-router';
import { ResetConfirmForm } from '@web/features/auth/components/reset-confirm-form';

export function Component() {
  const { uid = '', token = '' } = useParams();
  return <ResetConfirmForm key={`${uid}/${token}`} uid={uid} token={token} />;
}
