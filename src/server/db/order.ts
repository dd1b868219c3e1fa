import { badRequest } from '../http/errors';

/**
 * Checks that a new order names every row of the list as it is now exactly once: a list changed
 * meanwhile (a row added or removed elsewhere) is refused, never half reordered.
 */
export function assertPermutation(ids: readonly number[], existing: readonly number[]): void {
  const known = new Set(existing);
  if (ids.length !== existing.length || !ids.every((id) => known.has(id))) {
    throw badRequest({ ids: ['Give every id of the list exactly once.'] });
  }
}
