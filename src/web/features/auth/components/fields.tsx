import type { ComponentProps } from 'react';
import { Field } from '@web/components/ui/input';

type FieldProps = ComponentProps<typeof Field>;

/** The e-mail field of the account forms. */
export function EmailField(props: Omit<FieldProps, 'label' | 'type' | 'autoComplete'>) {
  return <Field label="Email" type="email" autoComplete="email" {...props} />;
}

export { PasswordField } from '@web/components/ui/password-field';
