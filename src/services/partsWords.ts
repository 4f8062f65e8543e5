/**
 * Paying a bill in parts in the payer's words: the progress, the least part, a way's cap and what is wrong with a part.
 * Apart from the rules, so that the first step's code, which prices the bill by those rules, carries none of this copy.
 */
import type { Kopecks } from './rules/pricing';
import type { PaymentTypeCode } from './rules/paymentKinds';
import { remainingOf, type PartProblem, type PartsOfBill } from './rules/parts';

/** How the payer's words name a way to pay in "… — не больше N руб. за один платеж". */
const THROUGH: Record<PaymentTypeCode, string> = {
  ALL: 'Картой',
  AllSberP: 'Через SberPay',
  SBP: 'Через СБП',
  SberPaySite: 'Через SberPay',
  SberPaySiteP: 'Через SberPay',
};

// Made on first use: making a formatter loads the locale's data, which would lengthen the page's first task.
let moneyFormat: Intl.NumberFormat | undefined;

/** "1 000 000,00 руб." with Russian grouping (a no-break space between groups, as the page shows money). */
export const rub = (kopecks: Kopecks) =>
  `${(moneyFormat ??= new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(kopecks / 100)} руб.`;

/** The cap of a way in the payer's words: 'Через СБП — не больше 1 000 000,00 руб. за один платеж'. */
export const capText = (code: PaymentTypeCode, capKopecks: Kopecks) => `${THROUGH[code]} — не больше ${rub(capKopecks)} за один платеж`;

/** The least part in the payer's words: 'Не меньше 50 000,00 руб.'. */
export const leastText = (leastKopecks: Kopecks) => `Не меньше ${rub(leastKopecks)}`;

/** A part's problem in the payer's words. */
export function partProblemText(problem: PartProblem, code: PaymentTypeCode): string {
  switch (problem.kind) {
    case 'not-a-sum':
      return 'Введите сумму в рублях и копейках';
    case 'below-minimum':
      return leastText(problem.leastKopecks);
    case 'above-remaining':
      return `Не больше, чем осталось оплатить: ${rub(problem.remainingKopecks)}`;
    case 'above-cap':
      return capText(code, problem.capKopecks);
  }
}

/** Progress in the payer's words: 'Оплачено 1 000 000,00 из 2 500 000,00 руб.'. */
export const paidText = (bill: PartsOfBill) => `Оплачено ${rub(bill.paidKopecks).replace(' руб.', '')} из ${rub(bill.amountKopecks)}`;

/** What remains in the payer's words: 'Осталось оплатить 1 500 000,00 руб.'. */
export const remainingText = (bill: PartsOfBill) => `Осталось оплатить ${rub(remainingOf(bill))}`;
