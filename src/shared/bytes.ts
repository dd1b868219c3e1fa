import { withUnit } from './numbers';

const KIB = 1024;
const MIB = 1024 * 1024;
const GIB = 1024 * 1024 * 1024;

/**
 * A number of megabytes or gigabytes with no more figures than a person reads as meant: one decimal under 100
 * ("3.5", "60.5"), none from 100 up ("606", not "605.6"), as operating systems write sizes; a whole number keeps
 * no ".0" (docs/decisions/097-the-app-comes-sooner-builds-when-needed-and-sizes-read-well.md).
 */
function threeFigures(value: number): number {
  const tenths = Math.round(value * 10) / 10;
  return tenths >= 100 ? Math.round(value) : tenths;
}

/**
 * A size as people read it: "3.4 MB", "120 KB", "606 MB", "1.5 GB", "6 bytes", "1 byte". Under a kilobyte it says
 * the bytes themselves (a 6-byte file read "1 KB" on the staff's screens); kilobytes are whole; megabytes and
 * gigabytes keep three figures at most (threeFigures; 1,000–1,023 MB keep their four). A size that rounds to 1,024 of a unit reads as one of the
 * next ("1 MB", "1 GB"). The number and its unit are kept on one line (a no-break space, as `withUnit`): the one
 * way a size is written to a person, in the app and in the server's messages (decisions 084, 092, 097).
 */
export function formatBytes(bytes: number): string {
  if (Math.round(bytes / MIB) >= KIB) return withUnit(threeFigures(bytes / GIB), 'GB');
  if (Math.round(bytes / KIB) >= KIB) return withUnit(threeFigures(bytes / MIB), 'MB');
  if (bytes >= KIB) return withUnit(Math.round(bytes / KIB), 'KB');
  return withUnit(bytes, bytes === 1 ? 'byte' : 'bytes');
}
