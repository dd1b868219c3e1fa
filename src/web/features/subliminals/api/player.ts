import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { PlayerState } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { apiRequest, fromQuery } from '@web/lib/api-client';

const PLAYER_KEY = ['player'];

/**
 * The account's player, its playlist and settings (docs/product/content.md#kept-with-the-account). The player's
 * route asks for it with the page's other data, so the page's first render can show what the account holds: asked
 * for after that render, a thousand messages were rendered a second time a few seconds later. Asked anew each time
 * the player opens (stale at once): another device may have saved since.
 */
export const playerQuery = () =>
  queryOptions({
    queryKey: PLAYER_KEY,
    queryFn: (context) => apiRequest<PlayerState>(API.player, fromQuery(context)),
    staleTime: 0,
  });

/** How long after it came an answer is still the one the player opens with (a slow phone renders for seconds). */
const OPENING_MS = 30_000;

/** The route's answer, when it is in (and recent) as the player first renders; otherwise undefined. */
export function answerAtOpening(queryClient: QueryClient): PlayerState | undefined {
  const state = queryClient.getQueryState<PlayerState>(PLAYER_KEY);
  return state?.status === 'success' && state.fetchStatus === 'idle' && Date.now() - state.dataUpdatedAt < OPENING_MS
    ? state.data
    : undefined;
}

/** The account's player as the page opens: the route's answer, awaited while it is on its way, else asked for now. */
export function accountPlayer(queryClient: QueryClient): Promise<PlayerState> {
  const onItsWay = queryClient.getQueryState(PLAYER_KEY)?.fetchStatus === 'fetching';
  // Stale at once, a query on its way is joined rather than answered from an older answer.
  return queryClient.fetchQuery({ ...playerQuery(), staleTime: onItsWay ? 0 : OPENING_MS });
}
