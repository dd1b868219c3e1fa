import { describe, expect, it } from 'vitest';
import { loginWithRedirect, safeRedirectTarget } from './paths';

describe('redirect targets', () => {
  it('round-trips a path through the login URL', () => {
    const url = new URL(loginWithRedirect('/music?x=1'), 'http://x');
    expect(safeRedirectTarget(url.searchParams.get('redirect'))).toBe('/music?x=1');
  });

  it('gives the path as the browser reads it', () => {
    expect(safeRedirectTarget('/mu\tsic#top')).toBe('/music#top');
    expect(safeRedirectTarget('/portal/../profile')).toBe('/profile');
  });

  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\\/evil.example',
    'javascript:alert(1)',
    '',
    null,
  ])('refuses %s', (value) => {
    expect(safeRedirectTarget(value)).toBeNull();
  });
});
