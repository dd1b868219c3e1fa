/**
 * A whole number with its thousands grouped, as in English: 5000 → "5,000". Written out because a
 * page's first `toLocaleString` loads the browser's locale data, tens of milliseconds on a phone.
 */
export function formatInteger(value: number): string {
  const digits = String(Math.trunc(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 ? `-${digits}` : digits;
}

/** A no-break space: a number and its unit stay on one line ("80 %", "−6 dB", "100 ms"). */
export const NO_BREAK_SPACE = '\u00a0';

/** A number with its unit, kept together on one line: 80, '%' → "80 %" (a no-break space). */
export const withUnit = (value: number | string, unit: string): string => `${value}${NO_BREAK_SPACE}${unit}`;

/**
 * The step of `limits` nearest to `value`, within its min and max (a half step goes up). Steps count
 * from the min, as an `<input step>` does; every stepped setting's min is a multiple of its step, so
 * these are the multiples the server takes.
 */
export function snapToStep(value: number, limits: { min: number; max: number; step: number }): number {
  const { min, max, step } = limits;
  return Math.min(max, Math.max(min, min + Math.round((value - min) / step) * step));
}

/**
 * An amount in its currency's smallest unit, as Stripe counts it, written as a reader does:
 * 3600 usd → "$36.00", 4000 jpy → "¥4,000" (for mail and staff's screens, where Intl's cost is no matter).
 */
export function formatMoney(amount: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** A wait of `ms`, in whole seconds under a minute, else in whole minutes, rounded up: never shorter than asked. */
export function waitInWords(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
