import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProgramSummary } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { fakeApi, renderWithProviders } from '@web/test/render';
import { ProgramsList } from './programs-list';

const program = (slug: string, title: string, completed: number[], next: number | null): ProgramSummary => ({
  slug,
  title,
  summary: `What ${title} is about.`,
  goals: ['calm'],
  day_count: 3,
  minutes: { min: 10, max: 15 },
  progress: { slug, completed_days: completed, next_day: next, last_completed_at: null, started_at: null },
});

describe('ProgramsList', () => {
  it('lists each program under a heading of its title, inside its card’s link to the program', async () => {
    fakeApi({
      [`GET ${API.programs}`]: () => [
        program('quiet-evenings', 'Quiet Evenings', [], 1),
        program('steady-mornings', 'Steady Mornings', [1], 2),
      ],
    });
    renderWithProviders(<ProgramsList />);
    const headings = await screen.findAllByRole('heading', { level: 2 });
    expect(headings.map((heading) => heading.textContent)).toEqual(['Quiet Evenings', 'Steady Mornings']);
    const link = screen.getByRole('link', { name: /^Quiet Evenings .*Begin with day 1$/ });
    expect(link).toHaveAttribute('href', '/programs/quiet-evenings');
    expect(link).toContainElement(headings[0]!);
    expect(
      screen.getByRole('link', { name: /^Steady Mornings .*1 of 3 days done.*Continue with day 2$/ }),
    ).toContainElement(headings[1]!);
  });
});
