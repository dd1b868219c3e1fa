import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes';

describe('formatBytes', () => {
  it('says what a size is, with no kilobyte made of a few bytes and no 1,024 KB, the number on one line with its unit', () => {
    expect([0, 1, 6, 1023, 1024, 1536, 1024 * 1024 - 1, 1024 * 1024, 3.45 * 1024 * 1024].map(formatBytes)).toEqual([
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
});
