import { describe, expect, it } from 'vitest';
import { UndoPlaces } from './undo-places';

/** A list of a form as react-hook-form keys it: an item put back gets a key of its own. */
function list(...items: string[]) {
  const places = new UndoPlaces();
  let keys = items.map((item) => `key-${item}`);
  let next = 0;
  places.follow(keys);
  return {
    remove(index: number) {
      const mark = places.removed(index);
      const item = keys[index]!.replace(/^key-|#\d+$/g, '');
      keys = keys.filter((_, at) => at !== index);
      places.follow(keys);
      return { mark, item };
    },
    undo({ mark, item }: { mark: symbol; item: string }) {
      const at = places.placeOf(mark);
      places.restored(mark);
      keys = [...keys.slice(0, at), `key-${item}#${++next}`, ...keys.slice(at)];
      places.follow(keys);
    },
    add(item: string) {
      keys = [...keys, `key-${item}`];
      places.follow(keys);
    },
    get items() {
      return keys.map((key) => key.replace(/^key-|#\d+$/g, ''));
    },
  };
}

describe('UndoPlaces', () => {
  it('puts back day 2 removed twice at its place, whichever Undo is pressed first', () => {
    for (const order of [
      [0, 1],
      [1, 0],
    ]) {
      const days = list('A', 'B', 'C', 'D');
      const removals = [days.remove(1), days.remove(1)];
      expect(days.items).toEqual(['A', 'D']);
      days.undo(removals[order[0]!]!);
      days.undo(removals[order[1]!]!);
      expect(days.items).toEqual(['A', 'B', 'C', 'D']);
    }
  });

  it('puts back three removals in any order where they were, and one after an item added at the end', () => {
    const days = list('A', 'B', 'C', 'D', 'E');
    const c = days.remove(2);
    const b = days.remove(1);
    const e = days.remove(2);
    days.add('F');
    expect(days.items).toEqual(['A', 'D', 'F']);
    days.undo(c);
    days.undo(e);
    days.undo(b);
    expect(days.items).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
  });
});
