import { maskPhone } from '../../../src/services/rules/phone';
import type { CheckoutDraft } from '../../../src/services/checkoutDraft';
import type { Bill, CodeRequest, CodePurpose, LoyaltyUser } from '../../../src/services/types';
import type { PageOptions } from './app';
import { aBill, aType, aUser } from '../../fixtures/billBuilder';
import type { Session } from './flow';

/** demo-anon's facts: noReg, 12 345.67, card / SBP / SberPay, no e-mail on file. */
export const anonBill = (): Bill => aBill({ objectOID: 'model-anon' });

/**
 * A 2 500 000.00 bill paid in parts of at least 50 000.00, 1 000 000.00 of it paid already: card, and the fast-payment
 * system capped at 1 000 000.00 for one payment.
 */
export const partsBill = (): Bill =>
  aBill({
    objectOID: 'model-parts',
    info: { Summ: 2_500_000, Email: 'payer@example.com' },
    cardTypes: [aType({ CommissionSumm: 0 }), aType({ OID: 'type-sbp', Code: 'SBP', Name: 'СБП', CommissionSumm: 0, Maximum: 1_000_000 })],
    parts: { minimum: 50_000, paid: 1_000_000, remaining: 1_500_000, pointsSpent: false },
  });

/** demo-offer's: the card type shows both the aggregator and the executor offer. */
export const offerBill = (): Bill =>
  aBill({ objectOID: 'model-offer', info: { Email: 'payer@example.com' }, cardTypes: [aType({ IsShowAggregatorOffer: true, IsShowExecuterOffer: true })] });

/** demo-points': noReg, 8 000.00, CustNo, 3 000 useful points, the bill phone 79990000001 (masked, as the server sends it). */
export const pointsBill = (): Bill =>
  aBill({
    objectOID: 'model-points',
    pointsEnabled: true,
    usefulPoints: 3000,
    availablePoints: 4500,
    user: { Phone: maskPhone('79990000001') },
    info: { CustNo: 'C-1', Summ: 8000, Email: 'payer@example.com' },
  });

/** demo-cover's: 1 500.00 and 5 000 useful points, so points can pay it all. */
export const coverBill = (): Bill =>
  aBill({ objectOID: 'model-cover', pointsEnabled: true, usefulPoints: 5000, availablePoints: 5000, user: { Phone: maskPhone('79990000003') }, info: { CustNo: 'C-3', Summ: 1500, Email: 'payer@example.com' } });

/** demo-reg's: the account flow, nobody signed in yet. */
export const accountBill = (): Bill => aBill({ objectOID: 'model-reg', noReg: false });

export const accountUser = (overrides: Partial<LoyaltyUser> = {}): LoyaltyUser => aUser({ phone: '79990000002', ...overrides });

export const PROVIDER = '/ajax/realty';

/**
 * How a test opens the page: the bill and the signed-in user the server answers with (or its refusal of the bill),
 * and the rest as the page is mounted with (PageOptions), but for a draft that says only what it changes.
 */
export type OpenOptions = Omit<PageOptions, 'billLink' | 'inspect' | 'draft'> & {
  bill: Bill;
  user?: LoyaltyUser | null;
  billStatus?: number;
  refusal?: Record<string, unknown>;
  draft?: Partial<CheckoutDraft>;
};

/** Scripts the page's first calls (checkUser, get-user, object-info) and opens it. */
export function openPage(session: Session, { bill, user = null, billStatus = 200, refusal = { success: false, error: 'Счет уже оплачен' }, draft, ...page }: OpenOptions) {
  scriptUser(session, user);
  if (billStatus === 200) session.server.once('get', `/ajax/object-info/${bill.objectOID}`, bill as never);
  else session.server.once('get', `/ajax/object-info/${bill.objectOID}`, refusal as never, billStatus);
  return session.open({ billLink: bill.objectOID, ...page, ...(draft ? { draft: { ...noDraft, ...draft } } : {}) });
}

/** A checkout draft with nothing kept, for a reload's draft to say only what it changes. */
const noDraft: CheckoutDraft = { email: null, typed: {}, selectedTypeOid: null, agreements: {}, usedPoints: 0, pointsToUse: null, phoneChecked: false, transactionID: null, code: null };

/** The user calls of a load or refresh: checkUser gives a token when somebody is signed in, get-user the user. */
export function scriptUser(session: Session, user: LoyaltyUser | null) {
  if (user) {
    session.server.once('post', `${PROVIDER}/checkUser/`, { success: true, json: { token: 'token-1' } });
    session.server.once('post', '/ajax/get-user', { success: true, user } as never);
  } else {
    session.server.once('post', `${PROVIDER}/checkUser/`, { success: false });
  }
}

/** A bill whose e-mail is known, so Continue goes straight to choosing the payment type. */
export const knownEmailBill = (objectOID: string): Bill => aBill({ objectOID, info: { Email: 'payer@example.com' } });

/** Opens a bill with a known e-mail and goes on to choosing the payment type. */
export async function openAtChoose(session: Session, objectOID: string, options: Pick<OpenOptions, 'isDesktop' | 'isSafariDesktop' | 'brokenCrypto'> = {}) {
  const page = openPage(session, { bill: knownEmailBill(objectOID), ...options });
  await session.page.user.click(await findButton('Продолжить'));
  return page;
}

async function findButton(name: string) {
  const { screen } = await import('@testing-library/react');
  const { eventually } = await import('./app');
  let button: HTMLElement | null = null;
  await eventually(() => {
    button = screen.getByRole('button', { name });
    expect(button).toBeEnabled();
  });
  return button!;
}

/**
 * A reload on the code screen: the server still has this session's `purpose` code for `phone` (it gives the
 * phone masked and the seconds until a resend), and `codeDraft`, when given, is what this tab's draft says the code was
 * asked for.
 */
export const reloadOnCodeScreen =
  (bill: () => Bill, sent: { purpose: CodePurpose; phone: string; secondsLeft?: number }, codeDraft?: CodeRequest) => async (session: Session) =>
    void openPage(session, {
      bill: { ...bill(), sentCode: { purpose: sent.purpose, phone: maskPhone(sent.phone), secondsLeft: sent.secondsLeft ?? 30 } },
      resumePath: '/checkSendCode',
      ...(codeDraft ? { draft: { code: codeDraft } } : {}),
    });
