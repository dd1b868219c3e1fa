import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminProgram, AdminProgramWrite } from '@shared/contract';
import { changedMeanwhileMessage, MESSAGE_CHANGED_CODE } from '@shared/contract/portal-plain';
import { ADMIN_API, adminPath } from '@shared/contract/admin';
import { DRAFT_BACK } from '@web/components/ui/draft-back';
import { sessionStore } from '@web/lib/session';
import { fakeApi, jsonResponse, pressToastAction, renderWithProviders } from '@web/test/render';
import { expectIsolated } from '@web/test/isolated';
import { PROGRAM_NOT_FOUND, ProgramsPanel } from './programs-panel';
import { PROGRAM_CHANGED_MEANWHILE, undoPastLayersLimit } from './program-editor';
import { PROGRAM_DAY_LAYERS_MAX } from '@shared/contract/guidance';

// Each toast has an id of its own, as sonner's have, so that the ones to take away can be counted.
let toastIds = 0;
vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(() => ++toastIds), dismiss: vi.fn() } }));
afterEach(() => {
  vi.clearAllMocks();
  sessionStore.clear();
  sessionStorage.clear();
});

const jwtWith = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '')}.s`;
const signIn = (id: number) =>
  sessionStore.setTokens({ access: jwtWith({ user_id: id }), refresh: `r${id}` }, `${id}@example.com`);

const evening = (): AdminProgram => ({
  slug: 'evening-pause',
  title: 'Evening Pause',
  summary: 'Three short evenings.',
  goals: ['calm'],
  position: 0,
  people_started: 2,
  updated_at: '2026-11-20T10:00:00Z',
  days: [1, 2, 3].map((day) => ({
    day,
    title: `Evening ${day}`,
    intro: 'Sit comfortably.',
    minutes: 5,
    messages: ['I slow down.'],
    layers: [{ kind: 'noise', colour: 'pink', gain: 0.3 }],
  })),
});

/**
 * The admin API for programs, as the server answers it: a taken slug is refused, each save gives the
 * program a new updated_at, and a replace naming an older one is refused.
 */
function programsServer(programs: AdminProgram[]) {
  let saves = 0;
  const stored = (body: AdminProgramWrite, position: number): AdminProgram => ({
    slug: body.slug,
    title: body.title,
    summary: body.summary,
    goals: body.goals ?? [],
    position,
    people_started: 0,
    updated_at: new Date(Date.UTC(2026, 10, 23, 22, 0, ++saves)).toISOString(),
    days: body.days.map((day, index) => ({
      ...day,
      day: index + 1,
      layers: (day.layers ?? []).map((layer) => (layer.kind === 'track' ? { ...layer, track_id: null } : layer)),
    })),
  });
  const find = (path: string) => programs.find((p) => adminPath(ADMIN_API.program, { slug: p.slug }) === path);
  const handlers: Parameters<typeof fakeApi>[0] = {
    [`GET ${ADMIN_API.programs}`]: () =>
      programs.map(({ days, people_started: _p, ...rest }) => ({ ...rest, day_count: days.length })),
    [`POST ${ADMIN_API.programs}`]: ({ body }) => {
      const write = body as AdminProgramWrite;
      if (programs.some((p) => p.slug === write.slug))
        return jsonResponse(400, { slug: ['A program with this slug already exists.'] });
      const created = stored(write, programs.length);
      programs.push(created);
      serve(created.slug);
      return jsonResponse(201, created);
    },
  };
  const serve = (slug: string) => {
    const path = adminPath(ADMIN_API.program, { slug });
    handlers[`GET ${path}`] = () => find(path) ?? jsonResponse(404, { detail: 'Not found.' });
    handlers[`PUT ${path}`] = ({ body }) => {
      const index = programs.findIndex((p) => p.slug === slug);
      const write = body as AdminProgramWrite;
      if (write.updated_at !== undefined && write.updated_at !== programs[index]!.updated_at)
        return jsonResponse(409, { detail: changedMeanwhileMessage('program'), code: MESSAGE_CHANGED_CODE });
      programs[index] = {
        ...stored(body as AdminProgramWrite, index),
        people_started: programs[index]!.people_started,
      };
      return programs[index];
    };
  };
  programs.forEach((program) => serve(program.slug));
  return fakeApi(handlers);
}

/** The first day's title field of the program open in the editor. */
const dayTitle = () => screen.getByLabelText('Title', { selector: '#day-0-title' });
/** The panel opened on the evening program, as a reload opens it. */
const openEvening = async () => {
  const view = renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=evening-pause' });
  await screen.findByLabelText('Title', { selector: '#day-0-title' });
  return view;
};

const putBody = (calls: { method: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'PUT').at(-1)?.body as AdminProgramWrite;

describe('ProgramsPanel', () => {
  it('says an address naming no program names none, with the way back to the list and no Try again', async () => {
    programsServer([evening()]);
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=gone-away' });
    expect(await screen.findByText(PROGRAM_NOT_FOUND)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('button', { name: 'All programs' })).toBeVisible();
  });

  it('hands the keyboard from the last program deleted to "New program" (decision 151)', async () => {
    const user = userEvent.setup();
    const programs = [evening()];
    fakeApi({
      [`GET ${ADMIN_API.programs}`]: () =>
        programs.map(({ days, people_started: _p, ...rest }) => ({ ...rest, day_count: days.length })),
      [`DELETE ${adminPath(ADMIN_API.program, { slug: 'evening-pause' })}`]: () => {
        programs.pop();
        return jsonResponse(204);
      },
    });
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs' });
    await user.click(await screen.findByRole('button', { name: 'Delete Evening Pause' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Evening Pause' })).toBeNull());
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'New program' })).toHaveFocus());
  });

  it('lists the programs with their days and goals', async () => {
    programsServer([evening()]);
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs' });
    const item = (await screen.findByRole('heading', { name: 'Evening Pause' })).closest('li')!;
    expect(item).toHaveTextContent('/programs/evening-pause · 3 days · Calm');
    expect(within(item).getByRole('link', { name: 'View Evening Pause as a member' })).toHaveAttribute(
      'href',
      '/programs/evening-pause',
    );
    expect(within(item).getByRole('button', { name: 'Edit Evening Pause' })).toBeInTheDocument();
  });

  it('creates a program; a slug the server refuses is shown under its field and the input is kept', async () => {
    const user = userEvent.setup();
    const server = programsServer([evening()]);
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs' });
    await user.click(await screen.findByRole('button', { name: 'New program' }));

    await user.type(screen.getByLabelText('Title', { selector: '#program-title' }), 'Evening Pause');
    expect(screen.getByLabelText('Address')).toHaveValue('evening-pause');
    await user.type(screen.getByLabelText('Summary'), 'Quiet evenings.');
    await user.click(screen.getByRole('checkbox', { name: 'Sleep' }));
    await user.type(screen.getByLabelText('Title', { selector: '#day-0-title' }), 'First evening');
    await user.type(screen.getByLabelText('Intro (read before the session)'), 'Sit down.');
    await user.type(screen.getByLabelText('Messages (one per line)'), 'I rest.{Enter}{Enter}  I let go.  ');
    await user.click(screen.getByRole('button', { name: 'Create program' }));

    expect(await screen.findByText('A program with this slug already exists.')).toBeInTheDocument();
    expect(screen.getByLabelText('Address')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Address')).toHaveFocus();
    expect(toast.error).toHaveBeenCalledWith('A program with this slug already exists.');
    const sent = server.calls.find((call) => call.method === 'POST')?.body as AdminProgramWrite;
    expect(sent).toMatchObject({
      slug: 'evening-pause',
      goals: ['sleep'],
      days: [
        { title: 'First evening', intro: 'Sit down.', minutes: 10, messages: ['I rest.', 'I let go.'], layers: [] },
      ],
    });

    await user.clear(screen.getByLabelText('Address'));
    await user.type(screen.getByLabelText('Address'), 'evening-rest');
    await user.click(screen.getByRole('button', { name: 'Create program' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Created \u2068Evening Pause\u2069.'));
    expect(await screen.findByRole('button', { name: 'Save program' })).toBeInTheDocument();
  });

  it('ties an error of the goals to each goal’s checkbox, as a field’s error is to its input', async () => {
    const user = userEvent.setup();
    fakeApi({
      [`GET ${ADMIN_API.programs}`]: () => [],
      [`POST ${ADMIN_API.programs}`]: () => jsonResponse(400, { goals: ['Each goal may be chosen once.'] }),
    });
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=new' });
    await user.type(await screen.findByLabelText('Title', { selector: '#program-title' }), 'Calm');
    await user.type(screen.getByLabelText('Summary'), 'Quiet.');
    await user.click(screen.getByRole('checkbox', { name: 'Sleep' }));
    await user.type(screen.getByLabelText('Title', { selector: '#day-0-title' }), 'First');
    await user.type(screen.getByLabelText('Intro (read before the session)'), 'Sit down.');
    await user.type(screen.getByLabelText('Messages (one per line)'), 'I rest.');
    await user.click(screen.getByRole('button', { name: 'Create program' }));
    expect(await screen.findByText('Each goal may be chosen once.')).toBeVisible();
    for (const goal of ['Sleep', 'Calm']) {
      const checkbox = screen.getByRole('checkbox', { name: goal });
      expect(checkbox).toHaveAttribute('aria-invalid', 'true');
      expect(checkbox).toHaveAccessibleDescription('Each goal may be chosen once.');
    }
  });

  it('checks a day before sending it: a blank message list is named under its field', async () => {
    const user = userEvent.setup();
    const server = programsServer([]);
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=new' });
    await user.type(screen.getByLabelText('Title', { selector: '#program-title' }), 'Calm');
    await user.click(screen.getByRole('button', { name: 'Create program' }));
    expect(await screen.findByText('A day needs at least one message.')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('edits a day: its title, messages, length and sound layers', async () => {
    const user = userEvent.setup();
    const server = programsServer([evening()]);
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=evening-pause' });

    const title = await screen.findByLabelText('Title', { selector: '#day-1-title' });
    await user.clear(title);
    await user.type(title, 'A slower evening');
    // The heading quotes the title in its own box (decision 064).
    expectIsolated(screen.getByText('A slower evening', { selector: 'legend *' }), 'A slower evening');
    const minutes = screen.getByLabelText('Length (minutes)', { selector: '#day-1-minutes' });
    await user.clear(minutes);
    await user.type(minutes, '12');
    await user.type(
      screen.getByLabelText('Messages (one per line)', { selector: '#day-1-messages' }),
      '{Enter}I breathe.',
    );
    await user.selectOptions(screen.getByLabelText('Layer 1', { selector: '#day-1-layer-0-kind' }), 'binaural');
    await user.click(screen.getByRole('button', { name: 'Add a layer to day 2' }));
    await user.selectOptions(screen.getByLabelText('Colour', { selector: '#day-1-layer-1-colour' }), 'brown');
    await user.click(screen.getByRole('button', { name: 'Save program' }));

    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Saved \u2068Evening Pause\u2069.'));
    expect(putBody(server.calls).days[1]).toEqual({
      from_day: 2,
      title: 'A slower evening',
      intro: 'Sit comfortably.',
      minutes: 12,
      messages: ['I slow down.', 'I breathe.'],
      layers: [
        { kind: 'binaural', left_hz: 200, right_hz: 206, gain: 0.3 },
        { kind: 'noise', colour: 'brown', gain: 0.3 },
      ],
    });
    expect(putBody(server.calls).days[0]?.title).toBe('Evening 1');
    expect(screen.getByText('Members see what is saved.')).toBeInTheDocument();
  });

  it('keeps the keyboard on a layer’s kind as it changes, and on the next remove button as a layer goes', async () => {
    const user = userEvent.setup();
    const server = programsServer([evening()]);
    await openEvening();

    // An arrow key on a closed select changes it: the select stays, with the keyboard on it, and the layer's fields
    // follow the kind.
    const kind = screen.getByLabelText('Layer 1', { selector: '#day-0-layer-0-kind' });
    kind.focus();
    await user.selectOptions(kind, 'isochronic');
    expect(screen.getByLabelText('Layer 1', { selector: '#day-0-layer-0-kind' })).toBe(kind);
    expect(kind).toHaveFocus();
    expect(screen.getByLabelText('Tone (Hz)', { selector: '#day-0-layer-0-carrier' })).toHaveValue(200);

    await user.click(screen.getByRole('button', { name: 'Add a layer to day 1' }));
    await user.click(screen.getByRole('button', { name: 'Add a layer to day 1' }));
    await user.click(screen.getByRole('button', { name: 'Remove layer 2 of day 1' }));
    // The layer that took its place.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Remove layer 2 of day 1' })).toHaveFocus());
    await user.keyboard('{Enter}');
    // At the end, the one before.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Remove layer 1 of day 1' })).toHaveFocus());
    await user.keyboard('{Enter}');
    // None left: where the next one is added.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Add a layer to day 1' })).toHaveFocus());
    expect(screen.getAllByText('No layers: the messages play in silence.')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(putBody(server.calls)).toBeDefined());
    expect(putBody(server.calls).days.map((day) => day.layers)).toEqual([
      [],
      [{ kind: 'noise', colour: 'pink', gain: 0.3 }],
      [{ kind: 'noise', colour: 'pink', gain: 0.3 }],
    ]);
  });

  it('puts a removed day back with Undo, as it was and at its place, with the keyboard on its title', async () => {
    const user = userEvent.setup();
    const server = programsServer([evening()]);
    await openEvening();

    await user.type(screen.getByLabelText('Intro (read before the session)', { selector: '#day-1-intro' }), ' Slowly.');
    await user.click(screen.getByRole('button', { name: 'Remove day 2' }));
    expect(screen.getByLabelText('Title', { selector: '#day-1-title' })).toHaveValue('Evening 3');
    pressToastAction('Day 2 removed; not saved yet.');

    const title = screen.getByLabelText('Title', { selector: '#day-1-title' });
    expect(title).toHaveValue('Evening 2');
    await vi.waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByText('Day 2 is back; not saved yet.')).toHaveAttribute('role', 'status');
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(putBody(server.calls)).toBeDefined());
    // What it held, typed too, and the day it was, so people's progress stays with it.
    expect(putBody(server.calls).days.map((day) => [day.title, day.intro, day.from_day, day.layers])).toEqual([
      ['Evening 1', 'Sit comfortably.', 1, [{ kind: 'noise', colour: 'pink', gain: 0.3 }]],
      ['Evening 2', 'Sit comfortably. Slowly.', 2, [{ kind: 'noise', colour: 'pink', gain: 0.3 }]],
      ['Evening 3', 'Sit comfortably.', 3, [{ kind: 'noise', colour: 'pink', gain: 0.3 }]],
    ]);
    // A save ends what Undo could put back.
    expect(toast.dismiss).toHaveBeenCalled();
  });

  it('puts a removed layer back with Undo at its place, with the keyboard on its kind, even after its day moved', async () => {
    const user = userEvent.setup();
    const server = programsServer([evening()]);
    await openEvening();

    await user.click(screen.getByRole('button', { name: 'Add a layer to day 2' }));
    await user.selectOptions(screen.getByLabelText('Layer 1', { selector: '#day-1-layer-0-kind' }), 'binaural');
    await user.click(screen.getByRole('button', { name: 'Remove layer 1 of day 2' }));
    expect(screen.getByLabelText('Layer 1', { selector: '#day-1-layer-0-kind' })).toHaveValue('noise');
    await user.click(screen.getByRole('button', { name: 'Move day 2 up' }));
    pressToastAction('Layer 1 of day 2 removed; not saved yet.');

    const kind = screen.getByLabelText('Layer 1', { selector: '#day-0-layer-0-kind' });
    expect(kind).toHaveValue('binaural');
    await vi.waitFor(() => expect(kind).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(putBody(server.calls)).toBeDefined());
    expect(putBody(server.calls).days.map((day) => day.layers)).toEqual([
      [
        { kind: 'binaural', left_hz: 200, right_hz: 206, gain: 0.3 },
        { kind: 'noise', colour: 'pink', gain: 0.3 },
      ],
      [{ kind: 'noise', colour: 'pink', gain: 0.3 }],
      [{ kind: 'noise', colour: 'pink', gain: 0.3 }],
    ]);
  });

  it('refuses an Undo that would bring a day past four layers, naming the limit, and keeps it for when there is room', async () => {
    const user = userEvent.setup();
    const server = programsServer([evening()]);
    await openEvening();

    await user.click(screen.getByRole('button', { name: 'Add a layer to day 2' }));
    await user.selectOptions(screen.getByLabelText('Layer 1', { selector: '#day-1-layer-0-kind' }), 'binaural');
    await user.click(screen.getByRole('button', { name: 'Remove layer 1 of day 2' }));
    for (let added = 0; added < 3; added += 1)
      await user.click(screen.getByRole('button', { name: 'Add a layer to day 2' }));
    expect(screen.getByText(`Up to ${PROGRAM_DAY_LAYERS_MAX} layers a day.`)).toBeInTheDocument();
    // Moved since: the refusal names the day as it is now.
    await user.click(screen.getByRole('button', { name: 'Move day 2 up' }));
    expect(pressToastAction('Layer 1 of day 2 removed; not saved yet.').kept).toBe(true);
    expect(toast.error).toHaveBeenCalledWith(undoPastLayersLimit(1, 1));
    expect(undoPastLayersLimit(1, 1)).toBe(
      'Layer 1 cannot come back: day 1 already has 4 layers, the most a day can hold.',
    );
    expect(screen.getByLabelText('Layer 1', { selector: '#day-0-layer-0-kind' })).toHaveValue('noise');

    await user.click(screen.getByRole('button', { name: 'Remove layer 4 of day 1' }));
    expect(pressToastAction('Layer 1 of day 2 removed; not saved yet.').kept).toBe(false);
    expect(screen.getByLabelText('Layer 1', { selector: '#day-0-layer-0-kind' })).toHaveValue('binaural');
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(putBody(server.calls)).toBeDefined());
    expect(putBody(server.calls).days.map((day) => day.layers?.length)).toEqual([PROGRAM_DAY_LAYERS_MAX, 1, 1]);
  });

  it('takes the Undo toasts away with the editor, where Undo would put nothing back', async () => {
    const user = userEvent.setup();
    programsServer([evening()]);
    const view = await openEvening();
    await user.click(screen.getByRole('button', { name: 'Remove layer 1 of day 3' }));
    await user.click(screen.getByRole('button', { name: 'Remove day 1' }));
    expect(toast.dismiss).not.toHaveBeenCalled();
    view.unmount();
    expect(toast.dismiss).toHaveBeenCalledTimes(2);
  });

  it('reorders, adds and removes days with the keyboard, then saves them in that order', async () => {
    const user = userEvent.setup();
    const server = programsServer([evening()]);
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=evening-pause' });

    await user.click(await screen.findByRole('button', { name: 'Move day 3 up' }));
    expect(screen.getByLabelText('Title', { selector: '#day-1-title' })).toHaveValue('Evening 3');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Move day 2 up' })).toHaveFocus());
    expect(screen.getByText('Day 3 is now day 2.')).toHaveAttribute('role', 'status');
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Title', { selector: '#day-0-title' })).toHaveValue('Evening 3');
    // At the top, "up" is disabled: the keyboard stays on the day's arrows.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Move day 1 down' })).toHaveFocus());

    await user.click(screen.getByRole('button', { name: 'Remove day 3' }));
    await user.click(screen.getByRole('button', { name: 'Add a day' }));
    await vi.waitFor(() => expect(screen.getByLabelText('Title', { selector: '#day-2-title' })).toHaveFocus());
    await user.keyboard('A new evening');
    await user.type(screen.getByLabelText('Intro (read before the session)', { selector: '#day-2-intro' }), 'Rest.');
    await user.type(screen.getByLabelText('Messages (one per line)', { selector: '#day-2-messages' }), 'I am here.');
    expect(screen.getByText('Unsaved changes.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save program' }));

    await vi.waitFor(() => expect(putBody(server.calls)).toBeDefined());
    expect(putBody(server.calls).days.map((day) => day.title)).toEqual(['Evening 3', 'Evening 1', 'A new evening']);
    // Each day names the day it was, so people's progress moves with it; the new day names none.
    expect(putBody(server.calls).days.map((day) => day.from_day)).toEqual([3, 1, null]);
    // Moving, adding and removing only change the form; Save alone sends it.
    expect(server.calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
  });
  it('saves twice in a row, and does not overwrite a program someone saved after it was opened, then saves over it once told so', async () => {
    const user = userEvent.setup();
    const programs = [evening()];
    const server = programsServer(programs);
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=evening-pause' });

    // Looked up each time: the editor is drawn anew with what a save answers.
    const title = () => screen.getByLabelText('Title', { selector: '#day-0-title' });
    await screen.findByLabelText('Title', { selector: '#day-0-title' });
    await user.type(title(), ', slower');
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledTimes(1));
    expect(putBody(server.calls).updated_at).toBe('2026-11-20T10:00:00Z');
    const firstSave = programs[0]!.updated_at;
    expect(firstSave).not.toBe('2026-11-20T10:00:00Z');

    // The second save names the first one's answer, whether or not the list has reloaded yet.
    await user.type(title(), ' still');
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledTimes(2));
    expect(putBody(server.calls).updated_at).toBe(firstSave);

    // Someone else saves; this form's next save is refused and its input kept, said in the Save bar, not a toast.
    programs[0] = { ...programs[0]!, title: 'Their title', updated_at: '2026-11-24T08:00:00Z' };
    await user.type(title(), ' again');
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PROGRAM_CHANGED_MEANWHILE);
    expect(PROGRAM_CHANGED_MEANWHILE).toMatch(
      /^This program was changed meanwhile, perhaps in another tab or on another device, so yours was not saved\. /,
    );
    expect(toast.error).not.toHaveBeenCalled();
    expect(title()).toHaveValue('Evening 1, slower still again');
    expect(programs[0]!.title).toBe('Their title');

    // Read again with the refusal, the next Save puts what was typed in its place.
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledTimes(3));
    expect(putBody(server.calls).updated_at).toBe('2026-11-24T08:00:00Z');
    expect(programs[0]!.days[0]!.title).toBe('Evening 1, slower still again');
    expect(screen.queryByText(PROGRAM_CHANGED_MEANWHILE)).toBeNull();
  });

  it('shows the program as saved meanwhile instead of what was typed, when asked', async () => {
    const user = userEvent.setup();
    const programs = [evening()];
    const server = programsServer(programs);
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=evening-pause' });
    const title = () => screen.getByLabelText('Title', { selector: '#day-0-title' });
    await screen.findByLabelText('Title', { selector: '#day-0-title' });
    const theirs = evening();
    theirs.days[0]!.title = 'Their first evening';
    programs[0] = { ...theirs, updated_at: '2026-11-24T08:00:00Z' };
    await user.type(title(), ', slower');
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PROGRAM_CHANGED_MEANWHILE);

    await user.click(screen.getByRole('button', { name: 'Show the saved program' }));
    expect(title()).toHaveValue('Their first evening');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Members see what is saved.')).toBeVisible();
    expect(server.calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
  });

  it('gives a new program typed before the session ended back to its person, and to no one else, until created', async () => {
    const user = userEvent.setup();
    signIn(5);
    programsServer([evening()]);
    const first = renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=new' });
    await user.type(screen.getByLabelText('Title', { selector: '#program-title' }), 'Evening Rest');
    await user.type(screen.getByLabelText('Summary'), 'Quiet evenings.');
    await user.type(screen.getByLabelText('Title', { selector: '#day-0-title' }), 'First evening');
    await user.type(screen.getByLabelText('Intro (read before the session)'), 'Sit down.');
    await user.type(screen.getByLabelText('Messages (one per line)'), 'I rest.{Enter}I let go.');
    // The session ends: the page goes to login.
    sessionStore.clear();
    first.unmount();

    signIn(6);
    const other = renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=new' });
    expect(screen.getByLabelText('Title', { selector: '#program-title' })).toHaveValue('');
    expect(screen.queryByText(DRAFT_BACK)).toBeNull();
    other.unmount();

    signIn(5);
    const server = programsServer([evening()]);
    renderWithProviders(<ProgramsPanel />, { path: '/admin/programs?program=new' });
    expect(screen.getByText(DRAFT_BACK)).toBeVisible();
    expect(screen.getByLabelText('Title', { selector: '#program-title' })).toHaveValue('Evening Rest');
    expect(screen.getByLabelText('Address')).toHaveValue('evening-rest');
    expect(screen.getByLabelText('Messages (one per line)')).toHaveValue('I rest.\nI let go.');
    await user.click(screen.getByRole('button', { name: 'Create program' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Created \u2068Evening Rest\u2069.'));
    expect(server.calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      slug: 'evening-rest',
      summary: 'Quiet evenings.',
      days: [{ title: 'First evening', messages: ['I rest.', 'I let go.'] }],
    });
    expect(screen.queryByText(DRAFT_BACK)).toBeNull();
    // Created: not given back again.
    expect(sessionStorage.length).toBe(0);
  });

  // docs/decisions/096-a-refused-save-keeps-its-draft-and-a-refused-record-stops.md
  it('keeps what a refused save held where a reload finds it, without a keystroke, and says again that it was not saved', async () => {
    const user = userEvent.setup();
    signIn(5);
    const programs = [evening()];
    const server = programsServer(programs);

    let view = await openEvening();
    await user.type(dayTitle(), ', slower');
    programs[0] = { ...programs[0]!, title: 'Their title', updated_at: '2026-11-24T08:00:00Z' };
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PROGRAM_CHANGED_MEANWHILE);
    // Reloaded with nothing typed since.
    view.unmount();
    view = await openEvening();
    expect(dayTitle()).toHaveValue('Evening 1, slower');
    expect(screen.getByText(DRAFT_BACK)).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(PROGRAM_CHANGED_MEANWHILE);
    expect(screen.getByRole('button', { name: 'Show the saved program' })).toBeVisible();
    // Typed on after the reload, and reloaded again: still said.
    await user.type(dayTitle(), ' still');
    view.unmount();
    view = await openEvening();
    expect(dayTitle()).toHaveValue('Evening 1, slower still');
    expect(screen.getByRole('alert')).toHaveTextContent(PROGRAM_CHANGED_MEANWHILE);

    // Save puts it in the place of the version read with the refusal; nothing is given back after.
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledTimes(1));
    expect(putBody(server.calls).updated_at).toBe('2026-11-24T08:00:00Z');
    expect(programs[0]!.days[0]!.title).toBe('Evening 1, slower still');
    view.unmount();
    view = await openEvening();
    expect(screen.queryByText(DRAFT_BACK)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();

    // Refused again and reloaded, Show the saved program keeps theirs, for good.
    await user.type(dayTitle(), ', faster');
    programs[0] = { ...programs[0]!, title: 'Their second title', updated_at: '2026-11-25T08:00:00Z' };
    await user.click(screen.getByRole('button', { name: 'Save program' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PROGRAM_CHANGED_MEANWHILE);
    view.unmount();
    view = await openEvening();
    await user.click(screen.getByRole('button', { name: 'Show the saved program' }));
    expect(dayTitle()).toHaveValue('Evening 1, slower still');
    view.unmount();
    await openEvening();
    expect(dayTitle()).toHaveValue('Evening 1, slower still');
    expect(screen.queryByText(DRAFT_BACK)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });

  it('gives an edit back over the program it began from, not over one saved since; All programs drops it', async () => {
    const user = userEvent.setup();
    signIn(5);
    const programs = [evening()];
    programsServer(programs);

    let view = await openEvening();
    await user.type(dayTitle(), ', slower');
    view.unmount();
    view = await openEvening();
    expect(dayTitle()).toHaveValue('Evening 1, slower');
    expect(screen.getByText(DRAFT_BACK)).toBeVisible();
    expect(screen.getByText('Unsaved changes.')).toBeVisible();
    view.unmount();

    // Someone saves the program meanwhile: the draft would undo their edit (and the server refuses it).
    programs[0] = { ...programs[0]!, title: 'Their title', updated_at: '2026-11-24T08:00:00Z' };
    view = await openEvening();
    expect(dayTitle()).toHaveValue('Evening 1');
    expect(screen.queryByText(DRAFT_BACK)).toBeNull();

    await user.type(dayTitle(), ', faster');
    // One press would lose it: All programs asks first, and Cancel goes back to the form as it was.
    await user.click(screen.getByRole('button', { name: 'All programs' }));
    let asking = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(asking).toHaveTextContent('What you changed in this program is not saved, and it goes if you leave now.');
    await user.click(within(asking).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(dayTitle()).toHaveValue('Evening 1, faster');
    expect(screen.getByRole('button', { name: 'All programs' })).toHaveFocus();
    await user.keyboard('{Enter}');
    asking = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(asking).getByRole('button', { name: 'Leave without saving' }));
    await screen.findByRole('heading', { name: 'Their title' });
    view.unmount();
    view = await openEvening();
    expect(dayTitle()).toHaveValue('Evening 1');
    expect(screen.queryByText(DRAFT_BACK)).toBeNull();

    // Nothing unsaved: All programs leaves at once.
    await user.click(screen.getByRole('button', { name: 'All programs' }));
    await screen.findByRole('heading', { name: 'Their title' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
