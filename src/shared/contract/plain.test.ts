import { describe, expect, it } from 'vitest';
import { isolated } from './plain';

describe('isolated', () => {
  it('puts a text between the first strong isolate and its pop', () => {
    expect(isolated('Sleep \u202etxt.exe')).toBe('\u2068Sleep \u202etxt.exe\u2069');
    expect(isolated('שינה עמוקה')).toBe('\u2068שינה עמוקה\u2069');
  });

  it('ends the box where it says: an isolate the text opens is closed inside, one it only closes is left out', () => {
    expect(isolated('Calm\u2067')).toBe('\u2068Calm\u2067\u2069\u2069');
    expect(isolated('\u2066a\u2069\u2069\u202eb')).toBe('\u2068\u2066a\u2069\u202eb\u2069');
  });
});
