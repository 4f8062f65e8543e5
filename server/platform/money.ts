/** Money is integer kopecks inside the server and roubles with two decimals on the wire (DESIGN §6). */
export const toRoubles = (kopecks: number): number => Math.round(kopecks) / 100;

/** Converts a wire amount in roubles to kopecks; refuses more than two decimals instead of rounding money away. */
export function toKopecks(roubles: number): number {
  const kopecks = Math.round(roubles * 100);
  if (Math.abs(kopecks - roubles * 100) > 1e-6) throw new RangeError('amount has more than two decimals');
  return kopecks;
}

/** The merchant API's money: a decimal string with exactly two places, `"12345.67"` (never a float on the wire). */
export const MONEY_PATTERN = '^(0|[1-9][0-9]{0,12})\\.[0-9]{2}$';
const moneyRegExp = new RegExp(MONEY_PATTERN);

/** `"12345.67"` → 1234567 kopecks, by the digits (no float in between); undefined when it is not such a string. */
export function parseMoney(value: string): number | undefined {
  if (!moneyRegExp.test(value)) return undefined;
  const [whole, fraction] = value.split('.') as [string, string];
  const kopecks = Number(whole) * 100 + Number(fraction);
  return Number.isSafeInteger(kopecks) ? kopecks : undefined;
}

/** 1234567 kopecks → `"12345.67"`; a negative amount keeps its sign. */
export function formatMoney(kopecks: number): string {
  const sign = kopecks < 0 ? '-' : '';
  const abs = Math.abs(kopecks);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
