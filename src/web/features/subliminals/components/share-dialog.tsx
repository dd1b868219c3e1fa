import { useLayoutEffect, useRef, useState } from 'react';
import { Copy, Link2, Share2 } from 'lucide-react';
import { toast } from 'sonner';
import type { ShareLink } from '@shared/contract';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@web/components/ui/dialog';
import { Input } from '@web/components/ui/input';
import { toastProblem } from '@web/lib/toast-problem';

/**
 * Shares one thing by link: creates the link, shows it with Copy, and ends it (the old link stops
 * working at once; sharing again makes a new one).
 */
export function ShareDialog({
  name,
  share,
  onShare,
  onStop,
}: {
  name: string;
  share: ShareLink | null | undefined;
  onShare: () => Promise<unknown>;
  onStop: () => Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);
  const createButton = useRef<HTMLButtonElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  /**
   * Set while Create link or Stop sharing runs: done, the other part of the dialog takes the pressed button's place,
   * and the keyboard, in the commit that shows it (Copy after a link is made, Create link after it is ended).
   */
  const handOver = useRef(false);
  const shared = Boolean(share);
  useLayoutEffect(() => {
    if (!handOver.current) return;
    handOver.current = false;
    (shared ? copyButton : createButton).current?.focus();
  }, [shared]);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    handOver.current = true;
    try {
      await action();
    } catch {
      // The caller's change reports the failure; the pressed button stays, and the keyboard on it.
      handOver.current = false;
    } finally {
      setBusy(false);
    }
  };
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Link copied.');
    } catch {
      toastProblem('Could not copy: select the link and copy it yourself.');
    }
  };
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button size="sm" variant="secondary" aria-label={`Share ${name}`}>
          <Share2 aria-hidden className="h-4 w-4" /> {share ? 'Shared' : 'Share'}
        </Button>
      </DialogTrigger>
      <DialogContent
        title={
          <>
            Share "<bdi>{name}</bdi>"
          </>
        }
        description="Anyone with the link sees the name and the messages, never your e-mail or anything else of yours. Signed-in visitors can play it or copy it into their account."
      >
        {share ? (
          <div className="flex flex-col gap-3">
            <div className="flex gap-2">
              <Input readOnly value={share.url} aria-label="Share link" onFocus={(event) => event.target.select()} />
              <Button ref={copyButton} className="shrink-0" onClick={() => void copy(share.url)}>
                <Copy aria-hidden className="h-4 w-4" /> Copy
              </Button>
            </div>
            <Button variant="danger" busy={busy} onClick={() => void run(onStop)} className="self-start">
              Stop sharing
            </Button>
          </div>
        ) : (
          <Button ref={createButton} busy={busy} onClick={() => void run(onShare)}>
            <Link2 aria-hidden className="h-4 w-4" /> Create link
          </Button>
        )}
      </DialogContent>
    </Dialog>
  );
}
