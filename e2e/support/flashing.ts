import { expect, type Locator, type Page } from '@playwright/test';

/**
 * On /subliminals, a person opens a seeded category, adds its messages to the playlist and starts
 * flashing them past the safety notice; answers the session screen.
 */
export async function startFlashing(page: Page, category = 'Confidence'): Promise<Locator> {
  await page.getByRole('button', { name: new RegExp(`^${category}`) }).click();
  await page.getByRole('button', { name: `Add ${category} to playlist` }).click();
  // Exact: a playlist's Remove can have "start" in its message ("I start now, …").
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await page.getByRole('button', { name: 'I understand, start' }).click();
  return page.getByTestId('flash-overlay');
}

/** Sends the session screen to its corner, where the page beside it stays usable. */
export async function putInCorner(screen: Locator): Promise<void> {
  await screen.getByRole('button', { name: 'In a corner' }).click();
  await expect(screen).toHaveAttribute('data-mode', 'corner');
}
