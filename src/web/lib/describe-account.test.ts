import { describe, expect, it } from 'vitest';
import { describeAccount } from './describe-account';

describe('describeAccount', () => {
  const cases: Parameters<typeof describeAccount>[] = [
    [{ email: 'mira@example.com', first_name: 'Mira', last_name: 'Okafor' }, 'old@example.com'],
    [{ email: 'mira@example.com', first_name: 'Mira  Jane', last_name: '' }, null],
    [null, 'mira@example.com'],
    [null, null],
    [{ email: 'e@example.com', first_name: 'élodie', last_name: '😀Ωmega' }, null],
  ];

  it('names the person by their names, else their address, with up to two initials', () => {
    expect(cases.map((args) => describeAccount(...args))).toEqual([
      { name: 'Mira Okafor', email: 'mira@example.com', initials: 'MO' },
      { name: 'Mira  Jane', email: 'mira@example.com', initials: 'MJ' },
      { name: 'mira@example.com', email: 'mira@example.com', initials: 'M' },
      { name: 'Your account', email: '', initials: '?' },
      { name: 'élodie 😀Ωmega', email: 'e@example.com', initials: 'É😀' },
    ]);
  });

  it('runs from its own text alone, as the portal frame’s script runs it', () => {
    const standalone = new Function(`return (${String(describeAccount)})`)() as typeof describeAccount;
    for (const args of cases) expect(standalone(...args)).toEqual(describeAccount(...args));
  });
});
