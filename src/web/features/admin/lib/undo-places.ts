import { useEffect, useState } from 'react';

/**
 * Where an Undo puts a removed item back in a list of a form (the program editor's days, a day's layers), whatever was
 * undone before it. The list as it was is kept with each removed item in its place (a mark), and an Undo puts the item
 * back after as many items as are still there before its mark: removing day 2 and then the new day 2 (the old day 3),
 * the two Undos, pressed in either order, give back 1, 2, 3, 4 — by the index alone, the older pressed first then the
 * newer gave 1, 3, 2, 4 (docs/decisions/136-each-undo-keeps-its-own-toast-a-wait-offline-is-not-red.md).
 *
 * `keys` are the list's items as the form has them now (react-hook-form's field ids), read again before each removal
 * and Undo: an item added or moved since goes right after the item before it.
 */
export class UndoPlaces {
  /** The items as they were, removed ones (marks) in their places. */
  private order: (string | symbol)[] = [];
  private present = new Set<string>();

  /** Reads the list as it is now. */
  follow(keys: readonly string[]) {
    const known = new Set(this.order.filter((item): item is string => typeof item === 'string'));
    // An item an Undo put back is held under a key of its own until the form names it: the new key at its place.
    this.order = this.order.map((item) => {
      if (typeof item !== 'string' || !item.startsWith(RESTORED)) return item;
      const key = keys[this.placeOf(item)];
      return key !== undefined && !known.has(key) ? key : item;
    });
    const named = new Set(this.order.filter((item): item is string => typeof item === 'string'));
    if (keys.length > 0 && !keys.some((key) => named.has(key))) {
      // A new form (a save, the saved program shown): nothing removed before can come back into it.
      this.order = [...keys];
      this.present = new Set(keys);
      return;
    }
    // Each removed item stays before the first item that followed it and is still there; an item moved since goes
    // where the form has it.
    const marksBefore = new Map<string | undefined, symbol[]>();
    let marks: symbol[] = [];
    for (const item of this.order) {
      if (typeof item === 'symbol') marks.push(item);
      else if (keys.includes(item)) {
        marksBefore.set(item, marks);
        marks = [];
      }
    }
    // Items added after the last one known (Add a day, Add a layer) go after what was removed at the end.
    const lastKnown = keys.findLastIndex((key) => marksBefore.has(key));
    this.order = keys.flatMap((key, at) => [...(marksBefore.get(key) ?? []), key, ...(at === lastKnown ? marks : [])]);
    if (lastKnown < 0) this.order.unshift(...marks);
    this.present = new Set(keys);
  }

  /** The mark of the item at `index`, taken out of the list now. */
  removed(index: number): symbol {
    const key = this.order.filter((item) => typeof item === 'string' && this.present.has(item))[index];
    const mark = Symbol('removed');
    const at = key === undefined ? -1 : this.order.indexOf(key);
    if (at < 0) this.order.push(mark);
    else {
      this.order.splice(at, 1, mark);
      this.present.delete(key as string);
    }
    return mark;
  }

  /** Where the item of `mark` goes back now: after the items still there that were before it. */
  placeOf(mark: symbol | string): number {
    const at = this.order.indexOf(mark);
    const before = at < 0 ? this.order : this.order.slice(0, at);
    return before.filter((item) => typeof item === 'string' && this.present.has(item)).length;
  }

  /** Says that the item of `mark` is put back at `placeOf(mark)`. */
  restored(mark: symbol) {
    const at = this.order.indexOf(mark);
    const key = `${RESTORED}${String(++restoredCount)}`;
    if (at >= 0) this.order.splice(at, 1, key);
    else this.order.push(key);
    this.present.add(key);
  }
}

const RESTORED = 'restored:';
let restoredCount = 0;

/** An `UndoPlaces` that follows `keys`, the field ids of a `useFieldArray`, from one render to the next. */
export function useUndoPlaces(keys: readonly string[]): UndoPlaces {
  const [places] = useState(() => new UndoPlaces());
  const joined = keys.join('\n');
  useEffect(() => {
    places.follow(joined === '' ? [] : joined.split('\n'));
  }, [places, joined]);
  return places;
}
