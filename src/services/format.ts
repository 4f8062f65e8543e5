/**
 * An Intl formatter made on its first use, then kept. Making one is costly (the locale's data is loaded then): made as
 * the module loads, it would lengthen the task that evaluates the first scripts, which blocks the payer's first taps;
 * made at the first render that needs it, it falls in the render's own slice.
 */
function once<Made>(make: () => Made): () => Made {
  let made: Made | undefined;
  return () => (made ??= make());
}

const pluralRules = once(() => new Intl.PluralRules('ru-RU'));

/** Russian plural forms: one (1, 21, 101), few (2–4, 22–24), many (0, 5–20, 25…). */
export function plural(n: number, forms: readonly [one: string, few: string, many: string]): string {
  const rule = pluralRules().select(Math.abs(Math.trunc(n)));
  if (rule === 'one') return forms[0];
  if (rule === 'few') return forms[1];
  return forms[2];
}

export const pointsWord = (n: number) => plural(n, ['балл', 'балла', 'баллов']);

const moneyFormat = once(() => new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const numberFormat = once(() => new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 }));

/** "12 345,67 руб." with Russian grouping (a no-break space between groups). */
export const formatMoney = (roubles: number) => `${moneyFormat().format(roubles)} руб.`;

/** The amount alone, for lines that carry their own 'руб.'. */
export const formatAmount = (roubles: number) => moneyFormat().format(roubles);

// Moscow's calendar day: the merchant's and the bank's, whatever the payer's own time zone.
const dayFormat = once(() => new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Moscow' }));

/** "02.12.2026" from an ISO time, the day in Moscow. */
export const formatDay = (iso: string) => dayFormat().format(new Date(iso));

/** "4 500" with Russian grouping. */
export const formatNumber = (n: number) => numberFormat().format(n);

export const formatPoints = (n: number) => `${formatNumber(n)} ${pointsWord(n)}`;

/** "+7 (999) 000-00-01" from 79990000001; anything else is shown as given. */
export function formatPhone(digits: string): string {
  const d = digits.replace(/\D/g, '');
  if (d.length !== 11) return digits;
  return `+${d[0]} (${d.slice(1, 4)}) ${d.slice(4, 7)}-${d.slice(7, 9)}-${d.slice(9, 11)}`;
}
