import { clsx } from 'clsx';
import { maxCharactersMessage, textLength } from '@shared/contract/plain';
import { formatInteger } from '@shared/numbers';

/** From how much of its limit a text's count shows: near it, not on every short line. */
const SHOWN_FROM = 0.8;

/**
 * A text against its field's limit, counted as the server counts it (trimmed, in characters): `over` is the
 * refusal to show and `describedBy` the ids the field points at, while the count shows.
 */
export function characterLimit(id: string, text: string, max: number) {
  const length = textLength(text);
  const shown = length >= Math.ceil(max * SHOWN_FROM);
  const over = length > max ? maxCharactersMessage(max) : undefined;
  const describedBy = [over ? `${id}-over` : '', shown ? `${id}-count` : ''].filter(Boolean).join(' ') || undefined;
  return { length, shown, over, describedBy };
}

/**
 * The count under a field near its limit ("183 / 200", in the support form's style), in red with the
 * server's refusal once over it: nothing typed or pasted is cut, the person sees how much to take out.
 */
export function CharacterCount({
  id,
  limit,
  max,
}: {
  id: string;
  limit: ReturnType<typeof characterLimit>;
  max: number;
}) {
  if (!limit.shown) return null;
  return (
    <div className="flex items-start justify-between gap-2 text-xs">
      {/* Announced once when it goes over; the count itself is not read out at each key. */}
      {limit.over ? (
        <p id={`${id}-over`} role="alert" className="text-sm text-danger">
          {limit.over}
        </p>
      ) : (
        <span />
      )}
      <p
        id={`${id}-count`}
        aria-live="off"
        className={clsx('ml-auto shrink-0 tabular-nums', limit.over ? 'font-semibold text-danger' : 'text-fg-muted')}
      >
        {formatInteger(limit.length)} / {formatInteger(max)}
      </p>
    </div>
  );
}
