import { changedMeanwhileMessage, MESSAGE_CHANGED_CODE } from '@shared/contract';
import { ApiError } from '../http/errors';

/**
 * Refuses an edit begun from a text the row no longer holds (another tab, another staff member changed it since):
 * 409 in the shared words, thrown inside the caller's transaction, which reads `stored` under the row's lock, so
 * nothing changes and of two edits from one text one is taken. Without `previous` (a client that names none) the last
 * write wins; an edit that writes no `next` of this text is not compared, and a row that already reads `next` is no
 * conflict (a save sent twice). A thing saved whole (a program) is compared by its version, its `updated_at`: `next`
 * is `null`, as no text it writes can be found there already
 * (docs/decisions/062-an-edit-names-the-text-it-began-from.md, 084-a-staff-edit-of-a-name-names-the-name-it-began-from.md,
 * 091-the-rest-of-a-staff-library-kept-apart-and-not-saved-over.md).
 */
export function refuseIfChangedMeanwhile(
  what: Parameters<typeof changedMeanwhileMessage>[0],
  edit: { stored: string; next: string | null | undefined; previous: string | undefined },
): void {
  const { stored, next, previous } = edit;
  if (next === undefined || previous === undefined || stored === previous || stored === next) return;
  throw new ApiError(409, { detail: changedMeanwhileMessage(what), code: MESSAGE_CHANGED_CODE });
}
