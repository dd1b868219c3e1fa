import { withUnit } from './numbers';

const KIB = 1024;
const MIB = 1024 * 1024;

/**
 * A size as people read it: "3.4 MB", "120 KB", "6 bytes", "1 byte". Under a kilobyte it says the bytes themselves
 * (a 6-byte file read "1 KB" on the staff's screens), and a size that rounds to 1,024 KB reads "1 MB". The number
 * and its unit are kept on one line (a no-break space, as `withUnit`): the one way a size is written to a person, in
 * the app and in the server's messages (decisions 084, 092).
 */
export function formatBytes(bytes: number): string {
  if (Math.round(bytes / KIB) >= KIB) return withUnit(Math.round((bytes / MIB) * 10) / 10, 'MB');
  if (bytes >= KIB) return withUnit(Math.round(bytes / KIB), 'KB');
  return withUnit(bytes, bytes === 1 ? 'byte' : 'bytes');
}
