import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { wholeText, whyNotWhole } from '@web/test/reads-whole';
import { AccountSummary } from './account';

const email = 'alexandra.konstantinopoulou-whitfield.practice@longdomain-example.com';

describe('AccountSummary (the account menu, the phone menu, login)', () => {
  it('shows the e-mail whole, wrapping, as a phone has no hover to show the rest (decision 079)', () => {
    const { unmount } = render(<AccountSummary account={{ name: 'Ada Lovelace', email, initials: 'AL' }} />);
    expect(screen.getByText(wholeText(email))).toBeInTheDocument();
    for (const part of email.split(/(?=@)/)) expect(whyNotWhole(screen.getByText(part))).toBeNull();
    unmount();
    // Without a name of their own, the e-mail in its place is whole too.
    render(<AccountSummary account={{ name: email, email, initials: 'A' }} />);
    expect(screen.getByText(wholeText(email))).toBeInTheDocument();
    for (const part of email.split(/(?=@)/)) expect(whyNotWhole(screen.getByText(part))).toBeNull();
  });

  it('keeps a long name to two lines, whole on hover', () => {
    const name = 'Ada '.repeat(75).trim();
    render(<AccountSummary account={{ name, email, initials: 'A' }} />);
    expect(screen.getByText(name)).toHaveAttribute('title', name);
    expect(whyNotWhole(screen.getByText(name))).toMatch(/line-clamp-2/);
  });
});
