import { ApiError } from './api-client';

/**
 * Puts the server's `{"field": ["message"]}` errors under their fields and then the keyboard on the first of them
 * (`focusFirstError`, lib/form-field.ts); returns whether any matched. `setError` is react-hook-form's, or the
 * account forms' light one (features/auth/use-light-form.ts).
 */
export function showServerFieldErrors<Name extends string>(
  error: unknown,
  fields: ReadonlyArray<Name>,
  setError: (name: Name, error: { type: 'server'; message: string }) => void,
  focusFirstError: () => void,
): boolean {
  if (!(error instanceof ApiError)) return false;
  let shown = false;
  for (const [field, message] of Object.entries(error.fieldErrors)) {
    const name = fields.find((candidate) => candidate === field);
    if (!name) continue;
    setError(name, { type: 'server', message });
    shown = true;
  }
  if (shown) focusFirstError();
  return shown;
}
