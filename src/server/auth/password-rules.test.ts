import { describe, expect, it } from 'vitest';
import { isTooSimilar, passwordProblems, PASSWORD_MESSAGES, quickRatio } from './password-rules';

describe("password rules (Django's defaults)", () => {
  it("computes difflib's quick_ratio", () => {
    // Values from Python's difflib: SequenceMatcher(a=..., b=...).quick_ratio().
    expect(quickRatio('password', 'example')).toBeCloseTo(0.266667, 5);
    expect(quickRatio('smith2024', 'smith')).toBeCloseTo(0.714286, 5);
    expect(quickRatio('abcd', 'dcba')).toBe(1);
    expect(quickRatio('', '')).toBe(1);
  });

  it('refuses passwords like the e-mail, its local part or a word of it', () => {
    expect(isTooSimilar('johnsmith', 'john.smith@example.com')).toBe(true);
    expect(isTooSimilar('Smith2024', 'john.smith@example.com')).toBe(true);
    expect(isTooSimilar('john.smith@example.com', 'John.Smith@Example.com')).toBe(true);
    expect(isTooSimilar('Quiet-Harbour-58', 'john.smith@example.com')).toBe(false);
  });

  it('lists every problem in order, and none for a good password', () => {
    expect(passwordProblems('1234567', 'a@example.com')).toEqual([
      PASSWORD_MESSAGES.tooShort,
      PASSWORD_MESSAGES.tooCommon,
      PASSWORD_MESSAGES.entirelyNumeric,
    ]);
    expect(passwordProblems('Quiet-Harbour-58', 'a@example.com')).toEqual([]);
  });

  it('allows 128 characters and refuses more', () => {
    expect(passwordProblems('Quiet-Harbour-'.padEnd(128, 'x'), 'a@example.com')).toEqual([]);
    expect(passwordProblems('Quiet-Harbour-'.padEnd(129, 'x'), 'a@example.com')).toEqual([PASSWORD_MESSAGES.tooLong]);
  });
});
