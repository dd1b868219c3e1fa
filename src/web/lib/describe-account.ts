// No imports, and nothing in the function's body from outside it but JavaScript's own: the script that
// puts a portal frame in place runs the function's text before the first paint (build/vite-plugins.ts),
// so the frame's badge has the initials the app's will.

export interface Account {
  /** The person's name, or their e-mail when they have not set one. */
  name: string;
  email: string;
  initials: string;
}

/**
 * The signed-in person as the app names them, from the user the session keeps (null before the app
 * has read it) and the address they logged in with.
 */
export function describeAccount(
  user: { email?: string; first_name?: string; last_name?: string } | null,
  loggedInEmail: string | null,
): Account {
  const email = user?.email ?? loggedInEmail ?? '';
  const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ').trim() || email;
  const words = name.includes('@') ? [name] : name.split(/\s+/);
  const initials = words
    .slice(0, 2)
    // Its first character, not its first UTF-16 unit: half an emoji would show as "�".
    .map((word) => (Array.from(word)[0] ?? '').toUpperCase())
    .join('');
  return { name: name || 'Your account', email, initials: initials || '?' };
}
