import { Play, Square } from 'lucide-react';
import type { VoiceRecording } from '@shared/contract';
import { Button } from '@web/components/ui/button';

/** A kept recording's Listen, which reads Stop while it plays (`useTakeListening`). */
export function ListenButton({ take, playing, onPress }: { take: VoiceRecording; playing: boolean; onPress(): void }) {
  return (
    <Button
      size="sm"
      variant="secondary"
      onClick={onPress}
      aria-label={`${playing ? 'Stop listening to' : 'Listen to'} “${take.text}”`}
    >
      {playing ? (
        <>
          <Square aria-hidden className="h-4 w-4" /> Stop
        </>
      ) : (
        <>
          <Play aria-hidden className="h-4 w-4" /> Listen
        </>
      )}
    </Button>
  );
}
