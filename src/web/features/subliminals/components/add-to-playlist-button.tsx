import { Check, ListPlus } from 'lucide-react';
import { Button } from '@web/components/ui/button';

/**
 * "Add" a whole category to the playlist; "Added" once all its messages are there. Both words take the
 * place of the longer one, so the button keeps its width and the row's other controls do not move.
 */
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
      <span className="grid justify-items-center">
        <span aria-hidden className="invisible col-start-1 row-start-1">
          Added
        </span>
        <span className="col-start-1 row-start-1">{added ? 'Added' : 'Add'}</span>
      </span>
    </Button>
  );
}
