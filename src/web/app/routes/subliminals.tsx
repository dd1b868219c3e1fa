import { SubliminalsPlayer } from '@web/features/subliminals/components/subliminals-player';
import { SubliminalsPage } from '../portal-pages';
import { messageCategoriesQuery } from '@web/features/subliminals/api/message-categories';
import { ownCategoriesQuery } from '@web/features/subliminals/api/own-messages';
import { playerQuery } from '@web/features/subliminals/api/player';
import { savedSubliminalsQuery } from '@web/features/subliminals/api/saved-subliminals';
import type { PageQueries } from '../page-data';

export const pageQueries: PageQueries = () => [
  messageCategoriesQuery(),
  ownCategoriesQuery(),
  savedSubliminalsQuery(),
  playerQuery(),
];

export function Component() {
  return (
    <SubliminalsPage>
      <SubliminalsPlayer />
    </SubliminalsPage>
  );
}
