import { useCallback, useLayoutEffect, useReducer, useRef } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';

/** What a form field takes from react-hook-form: its registration and its error message, if any. */
export function fieldProps<Values extends FieldValues>(form: UseFormReturn<Values>, name: FieldPath<Values>) {
  const error = form.getFieldState(name, form.formState).error?.message;
  return { ...form.register(name), error };
}

/**
 * Puts the keyboard on the form's first field marked invalid (`aria-invalid`) once its error is drawn under it, so
 * that a screen reader reads the field with its error, once (docs/decisions/071-a-form-speaks-once-and-sends-once.md).
 * `formRef` goes on the form; `focusFirstError()` is called where errors were just set: a submit the form's check
 * refused (react-hook-form's own focus, `shouldFocusError`, is off: it comes before the error is drawn), or the
 * server's field errors.
 */
export function useFocusFirstError() {
  const formRef = useRef<HTMLFormElement>(null);
  const wanted = useRef(false);
  const [, drawn] = useReducer((count: number) => count + 1, 0);
  // After each drawing of the form: the errors set with the request are in it by then.
  useLayoutEffect(() => {
    if (!wanted.current) return;
    const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!field) return;
    wanted.current = false;
    field.focus();
  });
  const focusFirstError = useCallback(() => {
    wanted.current = true;
    drawn();
  }, []);
  return { formRef, focusFirstError };
}
