import { describe, expect, it } from 'vitest';
import { SEED_MESSAGE_CATEGORIES } from '../seed/affirmations';
import evalSet from './eval-set.json' with { type: 'json' };
import { categoryText, GOAL_TEXT, rank, stem, tokens } from './recommender';

// The recommender's evaluation (docs/decisions/017): for each goal statement, the top three library
// categories against the labelled ones. precision@3 = |top 3 ∩ expected| / min(3, |expected|),
// averaged over the statements.

const items = SEED_MESSAGE_CATEGORIES.map((category) => ({
  value: category.name,
  text: categoryText(category.name, category.messages),
}));

describe('the recommender', () => {
  it('stems and drops stop words alike on both sides', () => {
    expect(tokens('I keep procrastinating on my Thesis')).toEqual(['procrastinat', 'thesi']);
    expect(stem('sleeping')).toBe(stem('sleep'));
    // "even" is a word of every kind of text, and the stem of "evening": a warm, even tone is not an evening one.
    expect(tokens('A warm, even tone')).not.toContain(stem('evening'));
  });

  it('ranks by the signal that matters and says why', () => {
    const ranked = rank(items, [{ text: 'sleep rest night', weight: 1, reason: 'Because you chose Sleep' }], 3);
    expect(ranked[0]).toMatchObject({ value: 'Restful Sleep', reason: 'Because you chose Sleep' });
  });

  it('gives each category the goal whose words it is about, and leaves out what two goals only touch in passing', () => {
    // Sleep's "rest" and "evening" (stemmed "even") are words in passing in Self-Love's, Calm's, Healthy Habits' and
    // Courage's affirmations; they once ranked all four, each "Because you chose Sleep".
    const goals = (['sleep', 'creativity'] as const).map((goal) => ({
      text: GOAL_TEXT[goal],
      weight: 1,
      reason: `Because you chose ${goal}`,
    }));
    expect(rank(items, goals, 5)).toEqual([
      expect.objectContaining({ value: 'Restful Sleep', reason: 'Because you chose sleep' }),
      expect.objectContaining({ value: 'Creativity', reason: 'Because you chose creativity' }),
    ]);
  });

  it(`reaches precision@3 ≥ 0.7 on the labelled goal statements (${evalSet.statements.length})`, () => {
    expect(evalSet.statements.length).toBeGreaterThanOrEqual(30);
    const names = new Set(items.map((item) => item.value));
    let precisionSum = 0;
    let hitsAt1 = 0;
    const misses: string[] = [];
    for (const { text, expected } of evalSet.statements) {
      for (const name of expected) expect(names, name).toContain(name);
      const top = rank(items, [{ text, weight: 1, reason: '' }], 3).map((r) => r.value);
      const found = top.filter((name) => expected.includes(name)).length;
      precisionSum += found / Math.min(3, expected.length);
      if (top[0] && expected.includes(top[0])) hitsAt1 += 1;
      if (found < Math.min(3, expected.length))
        misses.push(`${text} → ${top.join(', ')} (expected ${expected.join(', ')})`);
    }
    const precision = precisionSum / evalSet.statements.length;
    const hitRate = hitsAt1 / evalSet.statements.length;
    console.log(
      `recommender: precision@3 = ${precision.toFixed(3)}, top-1 correct = ${hitRate.toFixed(3)} over ${evalSet.statements.length} statements`,
    );
    if (misses.length) console.log(`not fully right:\n  ${misses.join('\n  ')}`);
    expect(precision).toBeGreaterThanOrEqual(0.7);
  });
});
