import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/** Puts the server's `{"field": ["message"]}` errors under their fields; returns whether any matched. */
export function showServerFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: ReadonlyArray<Path<T>>,
  setError: UseFormSetError<T>,
): boolean {
  if (!(error instanceof ApiError)) return false;
  let shown = false;
  for (const [field, message] of Object.entries(error.fieldErrors)) {
    const name = fields.find((candidate) => candidate === field);
    if (!name) continue;
    setError(name, { type: 'server', message }, { shouldFocus: !shown });
    shown = true;
  }
  return shown;
}
