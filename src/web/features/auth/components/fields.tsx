import type { ComponentProps } from 'react';
import { Field } from '@web/components/ui/input';

type FieldProps = ComponentProps<typeof Field>;

/** The e-mail field of the account forms. */
export function EmailField(props: Omit<FieldProps, 'label' | 'type' | 'autoComplete'>) {
  return <Field label="Email" type="email" autoComplete="email" {...props} />;
}

/** A password field: `new` for one being chosen (password managers offer to generate it). */
export function PasswordField({
  isNew = false,
  ...props
}: Omit<FieldProps, 'type' | 'autoComplete'> & { isNew?: boolean }) {
  return <Field type="password" autoComplete={isNew ? 'new-password' : 'current-password'} {...props} />;
}
