import { act, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { renderPage } from './prerender';

// The sign-up page with a share page to come back to is rendered afresh over its pre-rendering
// (docs/decisions/020-lean-pre-rendered-auth-pages.md): what was typed before its script came stays.

afterEach(() => {
  document.body.replaceChildren();
  window.history.replaceState(null, '', '/');
});

it('keeps what was typed, ticked and focused before the script came when the page is rendered afresh', async () => {
  document.body.innerHTML = `<div id="root">${renderPage('signup', '/signup')}</div>`;
  window.history.replaceState(null, '', '/signup?redirect=%2Fs%2Fabcdefghijklmnopqrstuv');
  const email = screen.getByLabelText('Email') as HTMLInputElement;
  email.value = 'quick@example.com';
  (screen.getByLabelText('Password', { exact: true }) as HTMLInputElement).value = 'Calm-River-2207';
  (screen.getByRole('checkbox') as HTMLInputElement).checked = true;
  const confirm = screen.getByLabelText('Confirm password') as HTMLInputElement;
  confirm.value = 'Calm-Ri';
  confirm.focus();
  confirm.setSelectionRange(3, 3);
  await act(async () => {
    await import('./signup');
  });
  // New elements (rendered afresh, its login link now carrying the share page), holding the same values.
  expect(screen.getByLabelText('Email')).not.toBe(email);
  expect(within(screen.getByRole('main')).getByRole('link', { name: 'Log in' })).toHaveAttribute(
    'href',
    '/login?redirect=%2Fs%2Fabcdefghijklmnopqrstuv',
  );
  expect(screen.getByLabelText('Email')).toHaveValue('quick@example.com');
  expect(screen.getByLabelText('Password', { exact: true })).toHaveValue('Calm-River-2207');
  expect(screen.getByRole('checkbox')).toBeChecked();
  const newConfirm = screen.getByLabelText('Confirm password') as HTMLInputElement;
  expect(newConfirm).toHaveValue('Calm-Ri');
  expect(newConfirm).toHaveFocus();
  expect(newConfirm.selectionStart).toBe(3);
});
