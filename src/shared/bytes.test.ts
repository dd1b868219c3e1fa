import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes';

describe('formatBytes', () => {
  it('says what a size is, with no kilobyte made of a few bytes and no 1,024 KB', () => {
    expect([0, 1, 6, 1023, 1024, 1536, 1024 * 1024 - 1, 1024 * 1024, 3.45 * 1024 * 1024].map(formatBytes)).toEqual([
      '0 bytes',
      '1 byte',
      '6 bytes',
      '1023 bytes',
      '1 KB',
      '2 KB',
      '1 MB',
      '1 MB',
      '3.5 MB',
    ]);
  });
});
