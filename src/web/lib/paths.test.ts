import { describe, expect, it } from 'vitest';
import { barLoginPath, loginWithRedirect, safeRedirectTarget, shareReturnTarget, withRedirect } from './paths';

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
    '/..//evil.example',
    '/.//evil.example',
    '/%2e%2e//evil.example',
    '/portal/..//evil.example/s/abc',
    '/./\\evil.example',
    'javascript:alert(1)',
    '',
    null,
  ])('refuses %s', (value) => {
    expect(safeRedirectTarget(value)).toBeNull();
  });
});

describe('the share page a sign-up returns to', () => {
  it('is a share page path, as the browser reads it, carried beside a query already there', () => {
    const url = new URL(withRedirect('/signup?plan=pro', '/s/Ab-c_12'), 'http://x');
    expect(url.searchParams.get('plan')).toBe('pro');
    expect(shareReturnTarget(url.searchParams.get('redirect'))).toBe('/s/Ab-c_12');
    expect(shareReturnTarget('/s/Ab\tc')).toBe('/s/Abc');
    expect(shareReturnTarget('/s/Ab\\c')).toBeNull();
    expect(withRedirect('/login', null)).toBe('/login');
  });

  it.each([
    '/profile',
    '/s/abc/../../profile',
    '/s/abc?next=//evil.example',
    '/s/',
    '//evil.example/s/abc',
    'https://evil.example/s/abc',
    null,
  ])('refuses %s', (value) => {
    expect(shareReturnTarget(value)).toBeNull();
  });
});

describe('the public bar’s "Log in"', () => {
  it('comes back to a share page, and to no other page', () => {
    expect(barLoginPath('/s/Ab-c_12')).toBe('/login?redirect=%2Fs%2FAb-c_12');
    for (const pathname of ['/', '/portal/home/', '/terms/', '/s/', '/s/abc/more', '/login'])
      expect(barLoginPath(pathname), pathname).toBe('/login');
  });
});
