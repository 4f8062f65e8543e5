/**
 * The payments' figures the desk shows: what successful payments brought in today, this week (from Monday) and this
 * month, in all and by way to pay, and each of the last 30 days (sum and count) for the chart and its table. Days are
 * the merchant's (Moscow time), as the export's are.
 */
import type { PaymentTypeRow } from '../billing/tables';
import { money } from '../merchant/views';
import { merchantDayOf, merchantDayStart, MERCHANT_UTC_OFFSET_MS, paidByDay, type DayFigure } from '../payments/figures';
import type { Store } from '../store/store';

export const CHART_DAYS = 30;

/** A day as the page names it: YYYY-MM-DD in the merchant's time zone. */
export const dayName = (day: number): string => new Date(merchantDayStart(day) + MERCHANT_UTC_OFFSET_MS).toISOString().slice(0, 10);

/** The merchant's day a YYYY-MM-DD names; undefined for anything else. */
export function dayOfName(name: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(name)) return undefined;
  const t = Date.parse(`${name}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== name) return undefined;
  return Math.floor(t / (24 * 60 * 60_000));
}

/** The first day of the week (Monday) and of the month a day falls in. */
export function periodStarts(day: number): { week: number; month: number } {
  // 1970-01-01 was a Thursday: day 0 is three days after a Monday.
  const week = day - ((day + 3) % 7);
  const date = new Date(merchantDayStart(day) + MERCHANT_UTC_OFFSET_MS);
  const month = day - (date.getUTCDate() - 1);
  return { week, month };
}

interface Total {
  count: number;
  kopecks: number;
}

const add = (total: Total, figure: DayFigure) => ({ count: total.count + figure.count, kopecks: total.kopecks + figure.kopecks });

function period(figures: DayFigure[], from: number) {
  const inside = figures.filter((figure) => figure.day >= from);
  const byMethod = new Map<PaymentTypeRow['code'], Total>();
  for (const figure of inside) byMethod.set(figure.method, add(byMethod.get(figure.method) ?? { count: 0, kopecks: 0 }, figure));
  const total = inside.reduce(add, { count: 0, kopecks: 0 });
  return {
    count: total.count,
    sum: money(total.kopecks),
    byMethod: [...byMethod.entries()].sort(([, a], [, b]) => b.kopecks - a.kopecks).map(([method, figure]) => ({ method, count: figure.count, sum: money(figure.kopecks) })),
  };
}

export async function paymentFigures(store: Store) {
  const today = merchantDayOf(store.now());
  const starts = periodStarts(today);
  const firstChartDay = today - (CHART_DAYS - 1);
  const from = Math.min(starts.week, starts.month, firstChartDay);
  const figures = await paidByDay(store, merchantDayStart(from), merchantDayStart(today + 1));
  const days = Array.from({ length: CHART_DAYS }, (_, i) => {
    const day = firstChartDay + i;
    const total = figures.filter((figure) => figure.day === day).reduce(add, { count: 0, kopecks: 0 });
    return { date: dayName(day), count: total.count, sum: money(total.kopecks) };
  });
  return {
    today: { from: dayName(today), ...period(figures.filter((figure) => figure.day === today), today) },
    week: { from: dayName(starts.week), ...period(figures, starts.week) },
    month: { from: dayName(starts.month), ...period(figures, starts.month) },
    days,
  };
}
