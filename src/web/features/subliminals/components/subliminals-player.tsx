import { useCallback, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { toast } from 'sonner';
import type { MessageCategory } from '@shared/contract';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { messageCategoriesQuery } from '../api/message-categories';
import { useFlashPlayer } from '../hooks/use-flash-player';
import { describeSync, usePlayerSync } from '../hooks/use-player-sync';
import {
  acceptNotice,
  clampSettings,
  loadPlaylist,
  loadSettings,
  noticeAccepted,
  savePlaylist,
  saveSettings,
  type PlayerSettings,
  type PlaylistItem,
} from '../lib/player-storage';
import { CategoryAccordion } from './category-accordion';
import { MyMessagesPanel } from './my-messages-panel';
import { FlashNoticeDialog } from './flash-notice-dialog';
import { FlashOverlay } from './flash-overlay';
import { PlaylistPanel } from './playlist-panel';
import { SettingsPanel } from './settings-panel';

export const LOAD_ERROR = 'There was an error loading the Subliminals!';
export const EMPTY_PLAYLIST = 'Please add messages to the playlist before playing.';

const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export function SubliminalsPlayer() {
  const categories = useQuery(messageCategoriesQuery());
  const [playlist, setPlaylist] = useState<PlaylistItem[]>(loadPlaylist);
  const [settings, setSettings] = useState<PlayerSettings>(loadSettings);
  const [playing, setPlaying] = useState(false);
  const [asking, setAsking] = useState(false);
  const flash = useFlashPlayer(playlist, settings, playing);
  const sync = usePlayerSync(playlist, settings, (savedPlaylist, savedSettings) => {
    setPlaylist(savedPlaylist);
    setSettings(savedSettings);
  });

  useEffect(() => savePlaylist(playlist), [playlist]);
  useEffect(() => saveSettings(clampSettings(settings)), [settings]);
  useEffect(() => {
    if (categories.isError) toast.error(LOAD_ERROR);
  }, [categories.isError]);

  const addCategory = (category: MessageCategory, source: PlaylistItem['source']) => {
    setPlaylist((current) => [...current, ...category.messages.map((message) => ({ ...message, source }))]);
    toast.success(`Added ${category.name} messages to playlist!`);
  };

  const start = () => {
    if (playlist.length === 0) {
      toast.error(EMPTY_PLAYLIST);
      return;
    }
    setSettings(clampSettings(settings));
    if (!noticeAccepted() || prefersReducedMotion()) setAsking(true);
    else setPlaying(true);
  };
  const stop = useCallback(() => setPlaying(false), []);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <section aria-labelledby="categories-heading" className="flex flex-col gap-3">
        <h2 id="categories-heading" className="text-lg font-semibold">
          Categories
        </h2>
        {categories.isPending ? (
          <Spinner label="Loading categories" className="py-10" />
        ) : categories.isError ? (
          <p role="alert" className="rounded-2xl border border-danger p-4 text-danger">
            {LOAD_ERROR}
          </p>
        ) : (
          <CategoryAccordion categories={categories.data} onAdd={(category) => addCategory(category, 'library')} />
        )}
        <div className="mt-3">
          <MyMessagesPanel onAdd={(category) => addCategory(category, 'own')} />
        </div>
      </section>
      <div className="flex flex-col gap-6">
        <PlaylistPanel
          playlist={playlist}
          onRemove={(index) => setPlaylist((current) => current.filter((_, i) => i !== index))}
          onClear={() => setPlaylist([])}
        />
        <SettingsPanel settings={settings} onChange={setSettings} />
        <div className="flex gap-3">
          <Button size="lg" onClick={start}>
            <Play aria-hidden className="h-5 w-5" /> Start
          </Button>
          <Button size="lg" variant="secondary" onClick={stop} disabled={!playing}>
            Stop
          </Button>
        </div>
        <p role="status" className={sync.status === 'refused' ? 'text-sm text-danger' : 'text-sm text-fg-muted'}>
          {describeSync(sync)}
        </p>
      </div>
      <FlashNoticeDialog
        open={asking}
        reducedMotion={asking && prefersReducedMotion()}
        onCancel={() => setAsking(false)}
        onAccept={() => {
          acceptNotice();
          setAsking(false);
          setPlaying(true);
        }}
      />
      {playing ? <FlashOverlay flash={flash} settings={settings} onStop={stop} /> : null}
    </div>
  );
}
