import { useParams } from 'react-router';
import { ProgramView } from '@web/features/guidance/components/program-view';

export function Component() {
  const { slug = '' } = useParams();
  return (
    <div className="py-4">
      <ProgramView key={slug} slug={slug} />
    </div>
  );
}
