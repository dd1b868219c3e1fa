import type { Config } from '../config';

/** The absolute URL of a file stored under DATA_DIR/media, by its relative path. */
export function mediaUrl(config: Pick<Config, 'publicUrl'>, relativePath: string): string {
  const encoded = relativePath.split('/').map(encodeURIComponent).join('/');
  return `${config.publicUrl}/media/${encoded}`;
}
