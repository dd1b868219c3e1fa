import { useParams } from 'react-router';
import { ActivateAccount } from '@web/features/auth/components/activate-account';

export function Component() {
  const { uid = '', token = '' } = useParams();
  return <ActivateAccount key={`${uid}/${token}`} uid={uid} token={token} />;
}
