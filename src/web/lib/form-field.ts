import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';

/** What a form field takes from react-hook-form: its registration and its error message, if any. */
export function fieldProps<Values extends FieldValues>(form: UseFormReturn<Values>, name: FieldPath<Values>) {
  const error = form.getFieldState(name, form.formState).error?.message;
  return { ...form.register(name), error };
}
