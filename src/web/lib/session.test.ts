import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore, userIdFromToken } from './session';
import { THEME_STORAGE_KEY } from './theme';

const jwtWith = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '')}.s`;

describe('session store', () => {
  it('keeps tokens and the user under the spec keys', () => {
    sessionStore.setTokens({ access: jwtWith({ user_id: 7 }), refresh: 'r' }, 'Ada@Example.com');
    // Until the profile arrives, the address typed at login says who is signed in.
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, id: 7, email: 'Ada@Example.com', user: null });
    sessionStore.setUser({ id: 7, email: 'ada@example.com', first_name: '', last_name: '', is_staff: false });
    expect(localStorage.getItem('user.access')).toBe(jwtWith({ user_id: 7 }));
    expect(localStorage.getItem('user.refresh')).toBe('r');
    expect(localStorage.getItem('user.id')).toBe('7');
    expect(localStorage.getItem('user.email')).toBe('ada@example.com');
    expect(JSON.parse(localStorage.getItem('user.user') ?? '{}')).toMatchObject({ email: 'ada@example.com' });
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, id: 7, email: 'ada@example.com' });
  });

  it("clears the person's storage when the session ends, and keeps the device's theme", () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    localStorage.setItem('innerwave.subliminals.playlist', '[{"message_text":"I am calm."}]');
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    sessionStore.clear();
    for (const key of [
      'user.access',
      'user.refresh',
      'user.user',
      'user.id',
      'user.email',
      'innerwave.subliminals.playlist',
    ])
      expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(sessionStore.get().isAuthenticated).toBe(false);
  });

  it('follows another tab that signs out', () => {
    sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com');
    let notified = 0;
    const unsubscribe = sessionStore.subscribe(() => notified++);
    localStorage.removeItem('user.access');
    window.dispatchEvent(new StorageEvent('storage', { key: 'user.access' }));
    unsubscribe();
    expect(notified).toBe(1);
    expect(sessionStore.get().isAuthenticated).toBe(false);
  });

  describe('in a browser that will not store it', () => {
    afterEach(() => {
      vi.restoreAllMocks();
      sessionStore.clear();
    });

    it('keeps the session for the tab when site data is blocked, and says the browser does not keep it', () => {
      // Site data blocked: every use of localStorage throws.
      vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      });
      sessionStore.reload();
      expect(sessionStore.get().isAuthenticated).toBe(false);
      expect(sessionStore.setTokens({ access: jwtWith({ user_id: 7 }), refresh: 'r' }, 'ada@example.com')).toBe(false);
      expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, id: 7, refresh: 'r' });
      sessionStore.setAccess('fresh');
      sessionStore.setUser({ id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: '', is_staff: false });
      expect(sessionStore.get()).toMatchObject({ access: 'fresh', user: { first_name: 'Ada' } });
      sessionStore.clear();
      expect(sessionStore.get().isAuthenticated).toBe(false);
    });

    it('keeps a session that does not fit whole out of the shared storage, so no other tab finds half of it', () => {
      // Full: the refresh token is the write too many.
      const setItem = Storage.prototype.setItem;
      vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key: string, value: string) {
        if (key === 'user.refresh') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        setItem.call(this, key, value);
      });
      expect(sessionStore.setTokens({ access: jwtWith({ user_id: 7 }), refresh: 'r' }, 'ada@example.com')).toBe(false);
      expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, id: 7, refresh: 'r' });
      expect(localStorage.getItem('user.access')).toBeNull();
      // Renewed, the access token stays the tab's too.
      sessionStore.setAccess('fresh');
      expect(sessionStore.get().access).toBe('fresh');
      expect(localStorage.getItem('user.access')).toBeNull();
    });
  });

  it('drops what was stored for the person a login replaces, as a sign-out would', () => {
    sessionStore.setTokens({ access: jwtWith({ user_id: 7 }), refresh: 'r' }, 'ada@example.com');
    sessionStore.setUser({ id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: '', is_staff: false });
    // Ada's playlist, with a change her account has not taken yet (it could not be reached), and the device's theme.
    localStorage.setItem('innerwave.subliminals.playlist', '[{"message_text":"I am Ada."}]');
    localStorage.setItem('innerwave.subliminals.unsynced', '2026-12-05T18:00:00Z');
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    // Bea logs in on a login form another tab still showed when Ada signed in.
    expect(sessionStore.setTokens({ access: jwtWith({ user_id: 8 }), refresh: 'r2' }, 'bea@example.com')).toBe(true);
    expect(sessionStore.get()).toMatchObject({ id: 8, email: 'bea@example.com', user: null });
    expect(localStorage.getItem('innerwave.subliminals.playlist')).toBeNull();
    expect(localStorage.getItem('innerwave.subliminals.unsynced')).toBeNull();
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    // The same person logging in again keeps what is theirs.
    localStorage.setItem('innerwave.subliminals.playlist', '[{"message_text":"I am Bea."}]');
    sessionStore.setTokens({ access: jwtWith({ user_id: 8 }), refresh: 'r3' }, 'bea@example.com');
    expect(localStorage.getItem('innerwave.subliminals.playlist')).not.toBeNull();
  });

  it('ends only the session it names: one another tab signed in since stays, with all stored for it', () => {
    sessionStore.setTokens({ access: jwtWith({ user_id: 7 }), refresh: 'r' }, 'ada@example.com');
    // Another tab signs Ada out and Bea in; this tab has not heard of it yet.
    localStorage.clear();
    localStorage.setItem('innerwave.subliminals.playlist', '[{"message_text":"Bea\'s"}]');
    for (const [key, value] of [
      ['user.id', '8'],
      ['user.refresh', 'r2'],
      ['user.access', jwtWith({ user_id: 8 })],
    ] as const)
      localStorage.setItem(key, value);
    expect(sessionStore.end('r')).toBe(false);
    expect(localStorage.getItem('user.refresh')).toBe('r2');
    expect(localStorage.getItem('innerwave.subliminals.playlist')).not.toBeNull();
    expect(sessionStore.end('r2')).toBe(true);
    expect(localStorage.getItem('user.access')).toBeNull();
  });

  it('keeps no profile asked for before another tab signed out, so the next person is not shown it', () => {
    sessionStore.setTokens({ access: jwtWith({ user_id: 7 }), refresh: 'r' }, 'ada@example.com');
    // Ada's profile is on its way (a login, a reload) when another tab signs her out.
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    sessionStore.setUser({ id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: '', is_staff: false });
    expect([
      localStorage.getItem('user.user'),
      localStorage.getItem('user.id'),
      localStorage.getItem('user.email'),
    ]).toEqual([null, null, null]);
    // Bea signs in in that other tab: her session is hers alone, without Ada's name.
    for (const [key, value] of [
      ['user.refresh', 'r2'],
      ['user.access', jwtWith({ user_id: 8 })],
    ] as const)
      localStorage.setItem(key, value);
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(sessionStore.get()).toMatchObject({ isAuthenticated: true, user: null, email: null });
    // Nor does a profile of Ada's arriving now go into Bea's session.
    sessionStore.setUser({ id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: '', is_staff: false });
    expect(sessionStore.get().user).toBeNull();
  });

  it('reads the user id claim of an access token', () => {
    expect(userIdFromToken(jwtWith({ user_id: 42 }))).toBe(42);
    expect(userIdFromToken('nonsense')).toBeNull();
  });
});
