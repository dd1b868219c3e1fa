import { describe, it, expect } from 'vitest';
import { SEED_MESSAGE_CATEGORIES } from './affirmations';

const allMessages = SEED_MESSAGE_CATEGORIES.flatMap((category) => category.messages);

describe('seed affirmations', () => {
  it('has at least 8 categories with unique, non-empty names', () => {
    expect(SEED_MESSAGE_CATEGORIES.length).toBeGreaterThanOrEqual(8);
    const names = SEED_MESSAGE_CATEGORIES.map((category) => category.name);
    for (const name of names) {
      expect(name).toBe(name.trim());
      expect(name.length).toBeGreaterThan(0);
    }
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
  });

  it('has at least 15 messages in every category', () => {
    for (const category of SEED_MESSAGE_CATEGORIES) {
      expect(category.messages.length, category.name).toBeGreaterThanOrEqual(15);
    }
  });

  it('keeps every message trimmed, non-empty and at most 90 characters', () => {
    for (const message of allMessages) {
      expect(message, message).toBe(message.trim());
      expect(message.length, message).toBeGreaterThan(0);
      expect(message.length, message).toBeLessThanOrEqual(90);
    }
  });

  it('has no duplicate messages across the whole set, ignoring case', () => {
    const seen = new Set<string>();
    const duplicates: string[] = [];
    for (const message of allMessages) {
      const key = message.toLowerCase();
      if (seen.has(key)) duplicates.push(message);
      seen.add(key);
    }
    expect(duplicates).toEqual([]);
  });
});
