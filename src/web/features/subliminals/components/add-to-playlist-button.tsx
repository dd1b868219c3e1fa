import { Check, ListPlus } from 'lucide-react';
import { Button } from '@web/components/ui/button';

/** "Add" a whole category to the playlist; "Added" once all its messages are there. */
export function AddToPlaylistButton({
  name,
  added,
  disabled,
  onAdd,
}: {
  name: string;
  added: boolean;
  disabled?: boolean;
  onAdd(): void;
}) {
  return (
    <Button
      size="sm"
      variant="secondary"
      className="shrink-0"
      disabled={disabled}
      onClick={onAdd}
      aria-label={added ? `Added ${name} to playlist: add it again` : `Add ${name} to playlist`}
    >
      {added ? <Check aria-hidden className="h-4 w-4 text-link" /> : <ListPlus aria-hidden className="h-4 w-4" />}
      {added ? 'Added' : 'Add'}
    </Button>
  );
}
