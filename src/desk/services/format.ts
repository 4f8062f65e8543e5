/** How the desk writes money, times and phones: Russian formats, Moscow time (the merchant's). */
import type { Money } from './types';

let moneyFormat: Intl.NumberFormat | null = null;

/** "12345.67" → 1234567 kopecks, by the digits. */
export const kopecksOf = (money: Money | string): number => {
  const value = typeof money === 'string' ? money : money.value;
  const [whole = '0', fraction = '0'] = value.replace('-', '').split('.');
  const kopecks = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  return value.startsWith('-') ? -kopecks : kopecks;
};

/** "12 345,67 руб." */
export const formatMoney = (money: Money | number): string => {
  const kopecks = typeof money === 'number' ? money : kopecksOf(money);
  moneyFormat ??= new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${moneyFormat.format(kopecks / 100)} руб.`;
};

/** 1234567 kopecks → "12345.67", the API's money. */
export const moneyValue = (kopecks: number): string => `${kopecks < 0 ? '-' : ''}${Math.trunc(Math.abs(kopecks) / 100)}.${String(Math.abs(kopecks) % 100).padStart(2, '0')}`;

/**
 * An amount as a person types it ("1 234,5", "1234.50", "1 234 руб.") in kopecks; undefined when it is not one (more
 * than two decimals, letters, nothing).
 */
export function typedKopecks(typed: string): number | undefined {
  const cleaned = typed.replace(/руб\.?/i, '').replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^\d{1,13}(\.\d{1,2})?$/.test(cleaned)) return undefined;
  return kopecksOf(cleaned);
}

/** A quantity as typed ("1,5", "2") as a number; undefined when it is not one. */
export function typedNumber(typed: string): number | undefined {
  const cleaned = typed.replace(/[\s\u00a0]/g, '').replace(',', '.');
  return /^\d{1,9}(\.\d{1,6})?$/.test(cleaned) ? Number(cleaned) : undefined;
}

const MSK = 3 * 60 * 60_000;
const two = (n: number) => String(n).padStart(2, '0');

/** "27.11.2026 14:05" in Moscow time. */
export function formatMoment(iso: string): string {
  const d = new Date(Date.parse(iso) + MSK);
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/** "27.11" or "27.11.2026" of a YYYY-MM-DD day. */
export function formatDay(day: string, withYear = false): string {
  const [year, month, date] = day.split('-');
  return withYear ? `${date}.${month}.${year}` : `${date}.${month}`;
}

/** Today in Moscow as YYYY-MM-DD (the exports' default period). */
export const moscowToday = (now: number): string => new Date(now + MSK).toISOString().slice(0, 10);

/** A date-time field's value ("2026-12-01T18:00", Moscow time) as an ISO moment; undefined when empty or not one. */
export function moscowInputToIso(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return undefined;
  const t = Date.parse(`${value}:00+03:00`);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** "+7 (999) 000-00-01" from 79990000001; anything else as given. */
export function formatPhone(digits: string | null): string {
  if (!digits) return '';
  const d = digits.replace(/\D/g, '');
  if (d.length !== 11) return digits;
  return `+${d[0]} (${d.slice(1, 4)}) ${d.slice(4, 7)}-${d.slice(7, 9)}-${d.slice(9, 11)}`;
}

/** A phone as typed ("+7 (999) 123-45-67", "89991234567") as the API's 11 digits starting with 7; else as typed. */
export function phoneDigits(typed: string): string {
  const d = typed.replace(/\D/g, '');
  if (d.length === 11 && d.startsWith('8')) return `7${d.slice(1)}`;
  if (d.length === 10) return `7${d}`;
  return d.length > 0 ? d : typed.trim();
}
