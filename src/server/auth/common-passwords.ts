import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths';

// A list of 30,000 common passwords (see common-passwords.SOURCE.md), checked the way Django's
// CommonPasswordValidator does: the candidate is trimmed and lowercased before the lookup.

// Named from the project root: the server also runs bundled, from dist/server.
const LIST_URL = path.join(PROJECT_ROOT, 'src/server/auth/common-passwords.txt');

let cached: Set<string> | undefined;

/** The common-password list as a Set of lowercase entries, read from disk once on first use. */
export function loadCommonPasswords(): Set<string> {
  if (!cached) {
    const text = readFileSync(LIST_URL, 'utf8');
    const entries = new Set<string>();
    for (const line of text.split(/\r?\n/)) {
      const entry = line.trim().toLowerCase();
      if (entry) entries.add(entry);
    }
    cached = entries;
  }
  return cached;
}

/** True when the password, trimmed and compared without regard to case, is on the common list. */
export function isCommonPassword(password: string): boolean {
  return loadCommonPasswords().has(password.trim().toLowerCase());
}
