import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { API, fillPath } from '@shared/contract/paths';
import { fakeApi, jsonResponse, planStateFor, renderWithProviders } from '@web/test/render';
import { ProgramView } from './program-view';

function renderProgram(answer: () => Response) {
  fakeApi({
    [`GET ${fillPath(API.program, { slug: 'no-such' })}`]: answer,
    [`GET ${API.plan}`]: () => planStateFor('basic'),
  });
  renderWithProviders(<ProgramView slug="no-such" />);
}

describe('ProgramView', () => {
  it('says a slug that names no program was not found, and leads to the programs instead of trying again', async () => {
    renderProgram(() => jsonResponse(404, { detail: 'Not found.' }));
    expect(await screen.findByRole('heading', { name: 'Program not found' })).toBeVisible();
    expect(
      screen.getByText(
        'The program you asked for does not exist. Check the address, or choose one of all the programs.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'See all programs' })).toHaveAttribute('href', '/programs');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText(/Could not load/)).toBeNull();
  });

  it('keeps Try again for a failure that asking again can mend', async () => {
    renderProgram(() => jsonResponse(500, { detail: 'A server error occurred.', request_id: 'r1' }));
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeVisible();
    // A program is not a list: the error names what it could not load.
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load this program: A server error occurred.');
    expect(screen.queryByRole('heading', { name: 'Program not found' })).toBeNull();
  });
});
