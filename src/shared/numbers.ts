/**
 * A whole number with its thousands grouped, as in English: 5000 → "5,000". Written out because a
 * page's first `toLocaleString` loads the browser's locale data, tens of milliseconds on a phone.
 */
export function formatInteger(value: number): string {
  const digits = String(Math.trunc(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 ? `-${digits}` : digits;
}
