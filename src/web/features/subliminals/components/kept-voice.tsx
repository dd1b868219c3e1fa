import type { VoiceRecording } from '@shared/contract';
import { ConfirmDelete } from '@web/components/ui/confirm-delete';
import { deleteVoiceRecording, useOwnVoiceChange } from '../api/own-voice';
import { useTakeListening } from '../lib/take-listening';
import { ListenButton } from './listen-button';

/**
 * The recordings of one's own voice kept after a downgrade (docs/product/plans.md, decisions §8): each listened to or
 * deleted, never recorded again below Pro. A delete asks first, as nothing brings the recording back on this plan;
 * the keyboard then goes to the next row's Delete or, the last one gone, to what `keyboardAfterLast` finds.
 */
export default function KeptVoice({
  recordings,
  keyboardAfterLast,
}: {
  recordings: readonly VoiceRecording[];
  keyboardAfterLast(): HTMLElement | null;
}) {
  const change = useOwnVoiceChange();
  const { listening, listen, stop } = useTakeListening();
  return (
    <ul className="flex flex-col gap-2">
      {recordings.map((take) => (
        <li
          key={take.id}
          className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-2xl border border-line bg-surface p-3"
        >
          <div className="min-w-0 flex-1 basis-48">
            <p className="break-words text-sm">{take.text}</p>
            <p className="text-xs text-fg-muted">Recorded, {(take.duration_ms / 1000).toFixed(1)} s</p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <ListenButton take={take} playing={listening === take.id} onPress={() => listen(take)} />
            <ConfirmDelete
              label={`Delete the recording of “${take.text}”`}
              title={
                <>
                  Delete the recording of “<bdi>{take.text}</bdi>”?
                </>
              }
              description="It is removed from your account. Recording your voice again is part of the Pro plan."
              keyboardWhenNoneLeft={keyboardAfterLast}
              onConfirm={() =>
                change(
                  async () => {
                    if (listening === take.id) stop();
                    await deleteVoiceRecording(take.id);
                  },
                  'Recording deleted.',
                  { key: `delete ${take.id}` },
                )
              }
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
