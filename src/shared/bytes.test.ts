import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('formatBytes', () => {
  it('says what a size is, with no kilobyte made of a few bytes and no 1,024 KB, the number on one line with its unit', () => {
    expect([0, 1, 6, 1023, 1024, 1536, MB - 1, MB, 3.45 * MB].map(formatBytes)).toEqual([
      '0\u00a0bytes',
      '1\u00a0byte',
      '6\u00a0bytes',
      '1023\u00a0bytes',
      '1\u00a0KB',
      '2\u00a0KB',
      '1\u00a0MB',
      '1\u00a0MB',
      '3.5\u00a0MB',
    ]);
  });

  it('writes no more figures than a person reads as meant: one decimal under 100, none from 100 up (decision 097)', () => {
    expect([10.14 * MB, 60.5 * MB, 99.94 * MB, 99.96 * MB, 100.4 * MB, 605.6 * MB, 500 * MB].map(formatBytes)).toEqual([
      '10.1\u00a0MB',
      '60.5\u00a0MB',
      '99.9\u00a0MB',
      '100\u00a0MB',
      '100\u00a0MB',
      '606\u00a0MB',
      '500\u00a0MB',
    ]);
  });

  it('counts gigabytes from what rounds to 1,024 MB, by the same rule', () => {
    expect([1023.4 * MB, 1023.6 * MB, 1.54 * GB, 12.34 * GB, 250.5 * GB].map(formatBytes)).toEqual([
      '1023\u00a0MB',
      '1\u00a0GB',
      '1.5\u00a0GB',
      '12.3\u00a0GB',
      '251\u00a0GB',
    ]);
  });
});
