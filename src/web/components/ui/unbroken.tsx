import type { ReactNode } from 'react';

/**
 * Text inside a sentence kept whole: it moves to the next line when it does not fit, and is cut only
 * when longer than a line. For an e-mail address (with the full stop after it), which a browser would
 * otherwise break at a hyphen or mid-word.
 */
export function Unbroken({ children }: { children: ReactNode }) {
  return <span className="inline-block max-w-full wrap-anywhere">{children}</span>;
}

/**
 * An e-mail address on one line when it fits; when it does not, it breaks before its @ rather than at a hyphen of
 * its name, each part whole unless longer than a line itself.
 */
export function UnbrokenAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <Unbroken>{email}</Unbroken>;
  return (
    <>
      <Unbroken>{email.slice(0, at)}</Unbroken>
      <Unbroken>{email.slice(at)}</Unbroken>
    </>
  );
}
