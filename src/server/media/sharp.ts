import type sharp from 'sharp';
import type { Sharp, SharpOptions } from 'sharp';

let loading: Promise<{ default: typeof sharp }> | undefined;

/**
 * sharp (libvips) on first use: only image uploads need it, and loaded it costs every worker about
 * 16 MB of memory from start-up on.
 */
export async function sharpOf(input: Buffer | string, options: SharpOptions): Promise<Sharp> {
  loading ??= import('sharp');
  const { default: load } = await loading;
  return load(input, options);
}
