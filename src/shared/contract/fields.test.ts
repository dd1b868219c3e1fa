import { describe, expect, it } from 'vitest';
import {
  characterCount,
  CONTROL_CHARACTER_REFUSED,
  DIRECTION_CONTROL_REFUSED,
  leadingCharacters,
  requiredString,
  typedText,
} from './fields';
import { typedTextRefusal } from './plain';
import { hasVisibleText, maxCharactersMessage, textLength } from './plain';

describe('hasVisibleText', () => {
  it('is false for text drawn as nothing and true once one character shows', () => {
    for (const empty of [
      '',
      '  \t\n',
      '\u200b',
      '\u200c\u200d\u2060',
      '\ufeff',
      '\u3164',
      '\u0007',
      '\u00ad',
      '\u0301\u0301',
      ' \u0308\u200b\u20dd ',
      '\u200b\ufeff\u2060',
    ])
      expect(hasVisibleText(empty), JSON.stringify(empty)).toBe(false);
    for (const shown of ['a', ' Ada ', '\u200bx', '👩\u200d🚀', 'é', 'e\u0301', '\u0915\u094d\u0937', '名', '-'])
      expect(hasVisibleText(shown)).toBe(true);
  });
});

describe('requiredString', () => {
  it('refuses a text of only invisible characters as blank, and keeps a visible one trimmed', () => {
    const field = requiredString().max(10);
    expect(field.safeParse('\u200b \u200b').error?.issues.map((issue) => issue.message)).toEqual([
      'This field may not be blank.',
    ]);
    expect(field.safeParse('').error?.issues.map((issue) => issue.message)).toEqual(['This field may not be blank.']);
    expect(field.parse('  Morning  ')).toBe('Morning');
    expect(field.safeParse('x'.repeat(11)).success).toBe(false);
  });
});

describe('leadingCharacters', () => {
  it('counts code points as the schemas do and cuts between graphemes', () => {
    expect(leadingCharacters('🌙'.repeat(10), 4)).toBe('🌙🌙🌙🌙');
    expect(characterCount('🌙🌙')).toBe(2);
    // A family is five code points; it is kept whole or left out.
    expect(leadingCharacters('ab👨‍👩‍👧', 4)).toBe('ab');
    expect(leadingCharacters('ab👨‍👩‍👧', 7)).toBe('ab👨‍👩‍👧');
    expect(leadingCharacters('e\u0301e\u0301', 3)).toBe('e\u0301');
    // A first grapheme longer than the whole budget is cut between code points rather than lost.
    expect(leadingCharacters(`a${'\u0301'.repeat(9)}`, 3)).toBe('a\u0301\u0301');
    expect(leadingCharacters('short', 80)).toBe('short');
  });
});

describe('typedText', () => {
  it('drops what is drawn as nothing at the ends, keeps an emoji whole and refuses a direction control inside', () => {
    const field = typedText().max(10);
    for (const [typed, kept] of [
      ['\u200bCalm', 'Calm'],
      [' \ufeff\u2060Calm\u200d\u200c\u200e ', 'Calm'],
      ['\u202eCalm\u202c', 'Calm'],
      ['Ca\u200dlm', 'Ca\u200dlm'],
      ['👨‍👩‍👧', '👨‍👩‍👧'],
      ['I ❤️', 'I ❤️'],
      ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ])
      expect(field.parse(typed), JSON.stringify(typed)).toBe(kept);
    for (const typed of ['a\u202eb', 'a\u2066b\u2069c', 'x\u202ay'])
      expect(field.safeParse(typed).error?.issues.map((issue) => issue.message)).toEqual([DIRECTION_CONTROL_REFUSED]);
    expect(field.safeParse('\u200b\u202e\u200b').error?.issues.map((issue) => issue.message)).toEqual([
      'This field may not be blank.',
    ]);
    // Counted after the ends are dropped: ten letters and invisible ends fit.
    expect(field.parse('\u200b'.repeat(50) + 'x'.repeat(10))).toBe('x'.repeat(10));
  });

  it('refuses a control character inside that shows as nothing or a box, and keeps tabs and line breaks', () => {
    const field = typedText();
    for (const typed of ['I am\u0007 calm', 'a\u001bb', 'next\u0085line', 'a\u007fb', 'a\u000bb'])
      expect(
        field.safeParse(typed).error?.issues.map((issue) => issue.message),
        JSON.stringify(typed),
      ).toEqual([CONTROL_CHARACTER_REFUSED]);
    expect(field.parse('Line one\nLine two\r\n\tand a tab')).toBe('Line one\nLine two\r\n\tand a tab');
    // At an end a line break or tab is white space, dropped as before.
    expect(field.parse('Calm\n')).toBe('Calm');
  });

  it('refuses what the forms refuse before sending (typedTextRefusal, without zod), and only that', () => {
    const field = typedText();
    for (const typed of [
      'a\u202eb',
      ' a\u2066b\u2069c ',
      'x\u202ay',
      '\u202eCalm\u202c',
      'Calm',
      'Ca\u200dlm',
      'שלום',
      'I am\u0007 calm',
      'two\nlines',
      'a\u0085b',
    ])
      expect(typedTextRefusal(typed), JSON.stringify(typed)).toBe(
        field.safeParse(typed).error?.issues.map((issue) => issue.message)[0],
      );
    expect(typedTextRefusal('Sleep \u202etxt.exe')).toBe(DIRECTION_CONTROL_REFUSED);
    expect(typedTextRefusal('Sleep \u001b[31m')).toBe(CONTROL_CHARACTER_REFUSED);
    expect(typedTextRefusal('\u2067Calm\u2069')).toBeUndefined();
  });

  it('reads a long run of invisible characters in time linear in its length', () => {
    const run = '\u200b'.repeat(500_000);
    // CPU time, which a machine busy with other work does not stretch as it does the clock's.
    const started = process.cpuUsage();
    expect(typedText().safeParse(`${run}a${run}`).data).toBe('a');
    expect(typedText().safeParse(`a${run}b`).success).toBe(true);
    const spent = process.cpuUsage(started);
    expect((spent.user + spent.system) / 1000).toBeLessThan(2000);
  });
});

describe('textLength', () => {
  it('counts as a field’s limit does: a text is at most n long exactly when the schema takes it', () => {
    const field = typedText().max(10, { error: maxCharactersMessage(10) });
    for (const text of [
      'a'.repeat(10),
      'a'.repeat(11),
      `  ${'a'.repeat(10)}\n`,
      '🌙'.repeat(10),
      '🌙'.repeat(11),
      '👨‍👩‍👧'.repeat(2),
      '👨‍👩‍👧'.repeat(3),
      'é'.repeat(10),
      'e\u0301'.repeat(5),
      'e\u0301'.repeat(6),
      `\u200b${'a'.repeat(10)}\u2060`,
      `\u200b${'a'.repeat(11)}`,
    ]) {
      const taken = field.safeParse(text);
      expect(textLength(text) <= 10, JSON.stringify(text)).toBe(taken.success);
      if (!taken.success) expect(taken.error.issues[0]?.message).toBe(maxCharactersMessage(10));
    }
    expect(textLength(' \u200b🌙🌙 ')).toBe(2);
  });
});
