import { useState, type ComponentProps } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { FieldError, Input } from './input';

/** What the server's password rules ask for (docs/product/accounts.md#password-rules), in one sentence. */
export const PASSWORD_RULES = 'At least 8 characters, not only digits, not a common password and not like your e-mail.';

/**
 * What an empty field of a chosen password says, naming that field: an empty confirm field is not the password above
 * it (docs/product/errors-and-limits.md#screen-messages).
 */
export const PASSWORD_MISSING = {
  newPassword: 'Your new password is missing',
  confirmPassword: 'Confirm your password: type it again',
  confirmNewPassword: 'Confirm your new password: type it again',
} as const;

/**
 * A labelled password input with a show/hide toggle; `isNew` for one being chosen (password managers
 * offer to generate it) and the rules under it.
 */
export function PasswordField({
  id,
  label,
  error,
  isNew = false,
  showRules = false,
  className,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'autoComplete'> & {
  id: string;
  label: string;
  error?: string | undefined;
  isNew?: boolean;
  showRules?: boolean;
}) {
  const [visible, setVisible] = useState(false);
  const describedBy = [error ? `${id}-error` : '', showRules ? `${id}-rules` : ''].filter(Boolean).join(' ');
  return (
    <div className={`flex flex-col gap-1.5 ${className ?? ''}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <Input
          id={id}
          type={visible ? 'text' : 'password'}
          autoComplete={isNew ? 'new-password' : 'current-password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className="pr-12"
          {...props}
        />
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          // The same short name beside every password field (what people expect), tied to its input.
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-controls={id}
          aria-pressed={visible}
          // On a touch screen 44 × 44 px, the field's height, at its right end (decision 121).
          className="absolute top-1/2 right-1.5 flex h-9 w-9 -translate-y-1/2 pointer-coarse:right-0 pointer-coarse:h-11 pointer-coarse:w-11 cursor-pointer items-center justify-center rounded-full text-fg-muted hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-focus-ring dark:hover:bg-white/10"
        >
          {visible ? <EyeOff aria-hidden className="h-4 w-4" /> : <Eye aria-hidden className="h-4 w-4" />}
        </button>
      </div>
      {showRules ? (
        <p id={`${id}-rules`} className="text-xs text-fg-muted">
          {PASSWORD_RULES}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}
