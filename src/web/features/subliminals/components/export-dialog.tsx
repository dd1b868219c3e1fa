import { useRef, useState } from 'react';
import { Download } from 'lucide-react';
import { formatBytes } from '@shared/bytes';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@web/components/ui/dialog';
import { EXPORT_MINUTES, exportBytes, exportSession } from '@web/lib/audio/export';
import { useSoundEngine } from '@web/lib/audio/use-sound-engine';
import { LayerNames } from '@web/components/mini-player';

export const EXPORT_FAILED = 'The export failed. Please try again.';

function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Audio export (Pro, docs/product/screens.md#audio-export): what plays now, rendered in the
 * browser to a WAV file of the chosen length, with progress and cancel.
 */
export function ExportDialog() {
  const state = useSoundEngine();
  const layers = state.layers.filter((layer) => layer.status === 'ready');
  const [minutes, setMinutes] = useState<number>(EXPORT_MINUTES[0]);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState('');
  const abort = useRef<AbortController | null>(null);

  async function render() {
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    setMessage('');
    try {
      const blob = await exportSession(layers, minutes * 60, {
        signal: controller.signal,
        onProgress: setProgress,
      });
      download(blob, `innerwave-session-${minutes}-min.wav`);
      setMessage(`Done: a ${minutes}-minute WAV file (${formatBytes(blob.size)}) is in your downloads.`);
    } catch {
      setMessage(controller.signal.aborted ? 'Export cancelled.' : EXPORT_FAILED);
    } finally {
      abort.current = null;
      setProgress(null);
    }
  }

  return (
    <Dialog onOpenChange={(open) => !open && abort.current?.abort()}>
      <DialogTrigger asChild>
        <Button variant="secondary">
          <Download aria-hidden className="h-4 w-4" /> Export audio
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Export the session as audio"
        description="What plays now, rendered in your browser to a WAV file (16-bit, 44.1 kHz, stereo) that you can play anywhere."
      >
        {layers.length === 0 ? (
          <p className="text-sm text-fg-muted">
            Nothing plays yet. Start the spoken affirmations, or a track, binaural beats or a noise colour, then export.
          </p>
        ) : (
          <div className="flex flex-col gap-4">
            <p className="text-sm">
              <span className="font-medium">Layers:</span> <LayerNames layers={layers} />
            </p>
            <fieldset className="flex flex-col gap-1">
              <legend className="mb-1 text-sm font-medium">Length</legend>
              <div className="flex flex-wrap gap-2">
                {EXPORT_MINUTES.map((option) => (
                  <button
                    key={option}
                    type="button"
                    aria-pressed={minutes === option}
                    disabled={progress !== null}
                    onClick={() => setMinutes(option)}
                    className={`min-h-11 rounded-full border border-line px-4 text-sm font-medium hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus-ring disabled:opacity-50 ${minutes === option ? 'border-accent bg-accent/15' : ''}`}
                  >
                    {option} min
                  </button>
                ))}
              </div>
            </fieldset>
            <p className="text-sm text-fg-muted">
              About {formatBytes(exportBytes(minutes * 60))}. The file fades out over its last seconds. Up to an hour.
            </p>
            {progress !== null ? (
              <div className="flex flex-col gap-1">
                <progress
                  aria-label="Export progress"
                  max={1}
                  value={progress}
                  className="h-2 w-full overflow-hidden rounded-full accent-accent"
                />
                <span className="text-sm tabular-nums text-fg-muted">{Math.round(progress * 100)}% rendered</span>
              </div>
            ) : null}
            <div className="flex flex-wrap justify-end gap-2">
              {progress !== null ? (
                <Button variant="secondary" onClick={() => abort.current?.abort()}>
                  Cancel
                </Button>
              ) : (
                <Button onClick={() => void render()}>
                  <Download aria-hidden className="h-4 w-4" /> Render and download
                </Button>
              )}
            </div>
          </div>
        )}
        <p role="status" className="mt-3 text-sm text-fg-muted empty:hidden">
          {message}
        </p>
      </DialogContent>
    </Dialog>
  );
}
