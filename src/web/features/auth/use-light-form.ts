import { useRef, useState, type FormEvent } from 'react';
import { useFocusFirstError } from '@web/lib/form-field';
import type { FieldErrors } from './validate';

type Check<Name extends string, Values> = (data: FormData) => { values: Values; errors: FieldErrors<Name> };

/**
 * The account forms' state without a form library: the inputs keep their own values (so what someone
 * types before the page has hydrated is kept), the check runs on submit and, after a first submit, on
 * each change of a field (as react-hook-form does elsewhere). A refused submit puts the keyboard on the first field
 * with an error once it is drawn (lib/form-field.ts). The server's field errors go under their fields through
 * `setError` (lib/server-field-errors).
 */
export function useLightForm<Name extends string, Values>(check: Check<Name, Values>) {
  const { formRef, focusFirstError } = useFocusFirstError();
  const submitted = useRef(false);
  const [errors, setErrors] = useState<FieldErrors<Name>>({});

  const onSubmit = (onValid: (values: Values) => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitted.current = true;
    const { values, errors: found } = check(new FormData(event.currentTarget));
    const shown = Object.fromEntries(Object.entries(found).filter(([, message]) => message)) as FieldErrors<Name>;
    setErrors(shown);
    if (Object.keys(shown).length > 0) focusFirstError();
    else onValid(values);
  };

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as Partial<HTMLInputElement>).name as Name | undefined;
    if (!submitted.current || !name) return;
    const message = check(new FormData(event.currentTarget)).errors[name];
    setErrors((current) => ({ ...current, [name]: message }));
  };

  return {
    formRef,
    errors,
    /** The form element's handlers: `<AuthForm {...form.formProps(onValid)}>`. */
    formProps: (onValid: (values: Values) => void) => ({ ref: formRef, onSubmit: onSubmit(onValid), onChange }),
    setError(name: Name, error: { message?: string }) {
      setErrors((current) => ({ ...current, [name]: error.message }));
    },
    /** The keyboard to the first field with an error, once it is drawn (after `setError`). */
    focusFirstError,
    reset() {
      formRef.current?.reset();
      submitted.current = false;
      setErrors({});
    },
  };
}
