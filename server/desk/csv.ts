/**
 * CSV that Excel opens as it is in a Russian locale: UTF-8 with a byte-order mark (else Excel reads it as Windows-1251),
 * `;` between fields (the Russian list separator), CRLF between rows, amounts with a decimal comma and dates as
 * dd.mm.yyyy hh:mm:ss, which it reads as numbers and dates. A text that Excel would run as a formula (=, +, -, @ first)
 * is written with an apostrophe before it.
 */
import { MERCHANT_UTC_OFFSET_MS } from '../payments/figures';

/** A cell: text (guarded, quoted when needed), an amount in kopecks, a moment, or nothing. */
export type Cell = { text: string } | { kopecks: number } | { at: number } | null;

const FORMULA_START = /^[=+\-@\t\r]/;

const quoted = (value: string) => (/[";\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value);

/** 123456 → `1234,56`; a negative amount keeps its sign. */
export const csvMoney = (kopecks: number): string => `${kopecks < 0 ? '-' : ''}${Math.trunc(Math.abs(kopecks) / 100)},${String(Math.abs(kopecks) % 100).padStart(2, '0')}`;

const two = (n: number) => String(n).padStart(2, '0');

/** A moment in the merchant's time zone as Excel reads a date and time. */
export function csvMoment(t: number): string {
  const d = new Date(t + MERCHANT_UTC_OFFSET_MS);
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

function cellText(cell: Cell): string {
  if (cell === null) return '';
  if ('kopecks' in cell) return csvMoney(cell.kopecks);
  if ('at' in cell) return csvMoment(cell.at);
  return quoted(FORMULA_START.test(cell.text) ? `'${cell.text}` : cell.text);
}

/** The file: the byte-order mark, the header, the rows. */
export function csvFile(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const lines = [header.map((name) => quoted(name)).join(';'), ...rows.map((row) => row.map(cellText).join(';'))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
