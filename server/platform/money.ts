/** Money is integer kopecks inside the server and roubles with two decimals on the page's wire. */
export const toRoubles = (kopecks: number): number => Math.round(kopecks) / 100;

/** An amount as a person reads it: `12 345,67 руб.` (the full stop is the abbreviation's). */
export const roublesText = (kopecks: number): string => `${toRoubles(kopecks).toLocaleString('ru-RU', { minimumFractionDigits: 2 })} руб.`;

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
