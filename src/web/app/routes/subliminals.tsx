import { SubliminalsPlayer } from '@web/features/subliminals/components/subliminals-player';
import { SubliminalsPage } from '../portal-pages';

export function Component() {
  return (
    <SubliminalsPage>
      <SubliminalsPlayer />
    </SubliminalsPage>
  );
}
