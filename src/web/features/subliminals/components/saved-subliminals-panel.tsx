import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FolderOpen, Save } from 'lucide-react';
import { toast } from 'sonner';
import { findTheme } from '@shared/themes';
import type { SubliminalSummary } from '@shared/contract';
import { PlanLock } from '@web/components/plan-lock';
import { AddForm } from '@web/components/ui/add-form';
import { Button } from '@web/components/ui/button';
import { ConfirmDelete } from '@web/components/ui/confirm-delete';
import { InlineEdit } from '@web/components/ui/inline-edit';
import { QueryState } from '@web/components/ui/query-state';
import { soundEngine } from '@web/lib/audio/app-engine';
import { useSoundEngine } from '@web/lib/audio/use-sound-engine';
import { AS_AN_UNDO, type Change } from '@web/lib/change';
import { usePlan } from '@web/lib/plan';
import { portalVisit } from '@web/lib/portal-presence';
import * as api from '../api/saved-subliminals';
import {
  clampSettings,
  playlistFromServer,
  playlistToServer,
  type PlayerSettings,
  type PlaylistItem,
} from '../lib/player-storage';
import { describeMix, skippedNote } from '../lib/mix-text';
import { leftOutOfSave, mixFromEngine, startSavedSound } from '../lib/saved-sound';
import { ShareDialog } from './share-dialog';
import { isolated } from '@shared/contract/plain';

export const SAVED_EMPTY =
  'Nothing saved yet. Build a playlist, choose its settings, theme and sound layers, then save it here.';

/** What plays now, as it would be saved with a subliminal. */
const currentSound = () => mixFromEngine(soundEngine.getState());

type Current = { playlist: readonly PlaylistItem[]; settings: PlayerSettings };

const themeName = (id: string) => findTheme(id)?.name ?? 'Custom theme';

function SavedRow({
  saved,
  current,
  editable,
  shareable,
  change,
  onOpen,
  onNote,
  keyboardWhenNoneLeft,
}: {
  saved: SubliminalSummary;
  current: Current;
  editable: boolean;
  shareable: boolean;
  change: Change;
  onOpen(playlist: PlaylistItem[], settings: PlayerSettings): void;
  onNote(note: string | null): void;
  /** Where the keyboard goes from Delete once this was the last one saved. */
  keyboardWhenNoneLeft(): HTMLElement | null;
}) {
  const plan = usePlan().plan;
  const queryClient = useQueryClient();
  const open = () => {
    // Inside the press, before the server is asked: Safari starts sound only there (decision 075). Released
    // once Open is done, whatever came of it: a failed one leaves a paused session asleep (decision 080).
    const release = saved.layer_count > 0 ? soundEngine.prime() : undefined;
    // The press's portal visit: a sign-out while the server answers opens nothing (decision 085).
    const visit = portalVisit();
    return change(
      async () => {
        const full = await api.getSubliminal(saved.id);
        visit.check();
        const playlist = playlistFromServer(full.playlist);
        onOpen(playlist, clampSettings(full.settings));
        onNote(null);
        if (!full.sound) return { full, note: null };
        // Until the plan is known the server's answer counts (every feature included, as usePlan).
        const started = await startSavedSound(full.sound, {
          plan: plan ?? 'pro',
          messages: playlist.map((item) => item.message_text),
          queryClient,
          visit,
        });
        const note = skippedNote(started.skipped);
        onNote(note ? `${isolated(full.name)}: ${note}` : null);
        return { full, note };
      },
      ({ full, note }) => `Opened ${isolated(full.name)}.${note ? ` ${note}` : ''}`,
      { key: `open ${saved.id}` },
    ).finally(release);
  };
  /** Renaming keeps what was saved: the messages, settings and sound as stored, not the player's. */
  const rename = async (name: string) => {
    const full = await api.getSubliminal(saved.id);
    return api.updateSubliminal(saved.id, {
      name,
      playlist: full.playlist,
      settings: full.settings,
      sound: full.sound,
    });
  };
  /** Set while an Update is on its way: its button waits, so a second press sends nothing. */
  const [updating, setUpdating] = useState(false);
  /** What it held is read first, so that "Undo" in the toast can put it back: Update is one click, next to Open. */
  const saveCurrent = async () => {
    setUpdating(true);
    const { before, leftOut } = await change(
      async () => {
        const full = await api.getSubliminal(saved.id);
        const sound = currentSound();
        const answer = await api.updateSubliminal(saved.id, {
          name: saved.name,
          playlist: playlistToServer(current.playlist),
          settings: current.settings,
          sound,
        });
        return { before: full, leftOut: leftOutOfSave(sound, answer) };
      },
      undefined,
      { key: `update ${saved.id}` },
    ).finally(() => setUpdating(false));
    onNote(leftOut ? `${isolated(saved.name)}: ${leftOut}` : null);
    toast.success(`Saved the playlist, settings and sound as ${isolated(saved.name)}.${leftOut ? ` ${leftOut}` : ''}`, {
      action: {
        label: 'Undo',
        // Under the name it has now: renamed since, the Undo does not undo the rename (decision 138). Failed offline,
        // the toast comes back for another press (decision 144).
        onClick: () =>
          change(
            async () =>
              api.updateSubliminal(saved.id, {
                name: (await api.getSubliminal(saved.id)).name,
                playlist: before.playlist,
                settings: before.settings,
                sound: before.sound,
              }),
            (back) => `${isolated(back.name)} is back as it was.`,
            AS_AN_UNDO,
          ),
      },
    });
  };
  return (
    <li className="flex flex-col gap-2 py-3">
      <div className="min-w-0">
        {editable ? (
          <InlineEdit
            typed
            value={saved.name}
            label={`name of ${saved.name}`}
            className="font-medium"
            onSave={(name) =>
              change(() => rename(name), `Renamed to ${isolated(name)}.`, { key: `rename ${saved.id}` })
            }
          />
        ) : (
          <p dir="auto" className="font-medium wrap-anywhere">
            {saved.name}
          </p>
        )}
        <p className="text-sm text-fg-muted">
          {saved.message_count} {saved.message_count === 1 ? 'message' : 'messages'} · {themeName(saved.theme)}
          {saved.layer_count > 0
            ? ` · ${saved.layer_count} sound ${saved.layer_count === 1 ? 'layer' : 'layers'}`
            : ' · no sound'}
          {saved.shared ? ' · shared' : ''}
        </p>
      </div>
      {/* In a list narrower than 384 px (a phone, the desktop's side column) the buttons drop their icons and some
          padding, so Open, Update, Share and the bin keep to one row (decision 086). */}
      <div className="flex flex-wrap items-center gap-1 @max-sm:[&_.btn-sm]:px-3 @max-sm:[&_svg]:hidden">
        <Button
          size="sm"
          variant="secondary"
          onClick={() => void open().catch(() => undefined)}
          aria-label={`Open ${saved.name}`}
        >
          <FolderOpen aria-hidden className="h-4 w-4" /> Open
        </Button>
        {editable ? (
          <Button
            size="sm"
            variant="secondary"
            busy={updating}
            // Unavailable, not busy, with nothing to save: an empty playlist is kept by no saved subliminal.
            disabled={!updating && current.playlist.length === 0}
            onClick={() => void saveCurrent().catch(() => undefined)}
            // Its name begins with the word it shows, so a voice saying "Update" presses it (WCAG 2.5.3, decision 155).
            aria-label={`Update ${saved.name} with the current playlist, settings and sound`}
          >
            <Save aria-hidden className="h-4 w-4" /> {updating ? 'Updating…' : 'Update'}
          </Button>
        ) : null}
        {/* After a downgrade a shared one can still be unshared, not shared anew. */}
        {shareable || saved.shared ? <SavedShare saved={saved} change={change} /> : null}
        <ConfirmDelete
          label={`Delete ${saved.name}`}
          title={
            <>
              Delete "<bdi>{saved.name}</bdi>"?
            </>
          }
          description={
            saved.shared
              ? 'It is removed from your account and its share link stops working.'
              : 'It is removed from your account.'
          }
          onConfirm={() =>
            change(() => api.deleteSubliminal(saved.id), `Deleted ${isolated(saved.name)}.`, {
              key: `delete ${saved.id}`,
            })
          }
          keyboardWhenNoneLeft={keyboardWhenNoneLeft}
        />
      </div>
    </li>
  );
}

/** The share dialog of one saved subliminal; its link is read when the dialog needs it. */
function SavedShare({ saved, change }: { saved: SubliminalSummary; change: Change }) {
  const full = useQuery({ ...api.savedSubliminalQuery(saved.id), enabled: saved.shared });
  return (
    <ShareDialog
      name={saved.name}
      share={saved.shared ? (full.data?.share ?? null) : null}
      onShare={() => change(() => api.subliminalShares.share(saved.id), 'Link created.', { key: `share ${saved.id}` })}
      onStop={() =>
        change(() => api.subliminalShares.unshare(saved.id), 'Sharing stopped: the link no longer works.', {
          key: `unshare ${saved.id}`,
        })
      }
    />
  );
}

/**
 * Named subliminals kept with the account (Intermediate and up): save the current playlist,
 * settings and the sound engine's layers, open one into the player (its sound starting as saved), update, rename, share, delete. After a downgrade what was
 * saved stays: it can be opened, unshared and deleted, not changed.
 */
export function SavedSubliminalsPanel({
  current,
  onOpen,
}: {
  current: Current;
  onOpen(playlist: PlaylistItem[], settings: PlayerSettings): void;
}) {
  const { has } = usePlan();
  const query = useQuery(api.savedSubliminalsQuery());
  const change = api.useSavedChange();
  // Save and share are offered, or locked, once the plan is read: the server refuses them below Intermediate and Pro
  // (decision 124).
  const canSave = has('savedSubliminals');
  const canShare = has('shareSubliminals') === true;
  const engine = useSoundEngine();
  const sound = mixFromEngine(engine);
  const [note, setNote] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const saveForm = useRef<HTMLDivElement>(null);
  // The last one deleted, the keyboard goes to the name field that saves the next one or, where saving is not offered
  // (after a downgrade), to the list's heading (docs/decisions/151-a-lists-last-row-hands-the-keyboard-on-and-its-rows-line-up.md).
  const keyboardWhenNoneLeft = () => saveForm.current?.querySelector('input') ?? heading.current;
  return (
    <section aria-labelledby="saved-heading" className="rounded-3xl border border-line bg-surface-raised p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 ref={heading} id="saved-heading" tabIndex={-1} className="card-heading outline-none">
          Saved subliminals
        </h2>
        {canSave === false ? (
          <PlanLock feature="savedSubliminals" what="Saving subliminals" label="Save & share" />
        ) : null}
      </div>
      {canSave ? (
        <div ref={saveForm} className="mt-3">
          <AddForm
            typed
            label="Name for the current playlist"
            action="Save the current playlist, settings and sound under this name"
            placeholder="Name, e.g. Morning focus"
            submitText="Save"
            onAdd={(name) =>
              change(
                async () => {
                  const sound = currentSound();
                  const leftOut = leftOutOfSave(
                    sound,
                    await api.createSubliminal({
                      name,
                      playlist: playlistToServer(current.playlist),
                      settings: current.settings,
                      sound,
                    }),
                  );
                  setNote(leftOut ? `${isolated(name)}: ${leftOut}` : null);
                  return leftOut;
                },
                (leftOut) => `Saved ${isolated(name)}.${leftOut ? ` ${leftOut}` : ''}`,
                { key: 'save' },
              )
            }
          />
          <p className="mt-2 text-sm text-fg-muted" data-testid="sound-to-save">
            {sound
              ? `Sound saved with it: ${describeMix(sound)}.`
              : 'No sound plays now: it is saved without one. Start sound layers first to keep them with it.'}
          </p>
        </div>
      ) : canSave === false ? (
        <p className="mt-2 text-sm text-fg-muted">
          {(query.data?.length ?? 0) > 0
            ? // Saved on a higher plan: said to be kept, so a downgrade does not read as a loss (decisions §8).
              'What you saved is kept: open it, stop sharing it or delete it here.'
            : 'Keep playlists with their settings and theme under a name, and share them by link.'}
        </p>
      ) : null}
      <div className="mt-2">
        <QueryState
          isPending={query.isPending}
          error={query.error}
          isEmpty={query.data?.length === 0}
          emptyText={canSave ? SAVED_EMPTY : 'Nothing saved.'}
          onRetry={() => void query.refetch()}
        >
          <ul className="@container divide-y divide-line">
            {query.data?.map((saved) => (
              <SavedRow
                key={saved.id}
                saved={saved}
                current={current}
                editable={canSave === true}
                shareable={canShare}
                change={change}
                onOpen={onOpen}
                onNote={setNote}
                keyboardWhenNoneLeft={keyboardWhenNoneLeft}
              />
            ))}
          </ul>
        </QueryState>
        {note ? (
          <p role="status" className="mt-2 rounded-2xl border border-line bg-fg/5 p-3 text-sm">
            {note}
          </p>
        ) : null}
      </div>
    </section>
  );
}
