import type { CodePurpose } from './codePurposes';
import type { DeclineReason } from './declineReasons';
import type { PaymentTypeCode } from './paymentKinds';

/**
 * Why a bill takes no payment any more, as the server's refusals name it (`closedAs` in the bill data's 409 and in
 * Pay's 422): the page says it in its own words.
 */
export type ClosedAs = 'cancelled' | 'expired';

/** A refusal's `closedAs`, or null when it names none. */
export function closedAsOf(body: unknown): ClosedAs | null {
  const closedAs = (body as { closedAs?: unknown } | null)?.closedAs;
  return closedAs === 'cancelled' || closedAs === 'expired' ? closedAs : null;
}

/**
 * The initial bill data, as `GET /ajax/object-info/{link id}` answers it and the page reads it: what the page shows,
 * and nothing more. Money is roubles with two
 * decimals on the wire.
 */
export interface Bill {
  /** The customer: the name; the phone masked by the server ('+7 (999) ***-**-67'); no e-mail (null, never shown). */
  user: { Name: string; Phone: string | null; Email: string | null };
  /** `Email`: the receipt address that prefills the field (the bill's, else its customer's). */
  info: { PaymentPurpose: string; CustNo: string | null; Summ: number; Email: string | null };
  cardTypes: PaymentType[];
  paymentURL: string;
  isBill: boolean;
  /** The bill's public link id (the field keeps its old name): every call of the page names the bill by it. */
  objectOID: string;
  objectType: string;
  noReg: boolean;
  pointsEnabled: boolean;
  usefulPoints: number;
  availablePoints: number;
  /** Where "Вернуться в магазин" leads after paying; absent or null: nowhere. */
  returnUrl?: string | null;
  /** The bill's attempt still waiting for its bank, for a reload to resume; null when there is none. */
  openAttempt?: OpenAttempt | null;
  /**
   * 'Попробовать снова' after a declined attempt (`?retry=` its order): its way to pay and e-mail, kept. The
   * e-mail is whole only for the session that asked for the attempt (`ownAttempt`), masked for anyone else.
   */
  retry?: Retry | null;
  /**
   * The bill's last attempt was a hold on the card let go (nothing taken): its way and the amount held, so even the
   * plain link says 'Блокировка снята'; null when the last attempt was anything else.
   */
  releasedHold?: ReleasedHold | null;
  /** The code this session had sent and may still enter, for a reload on the code screen; null: none. */
  sentCode?: SentCode | null;
  /** A bill the merchant lets be paid in several payments: how far it is paid; absent or null: one payment of the whole. */
  parts?: Parts | null;
}

/** A bill paid in parts as the page shows it, roubles: the least one payment pays, what is paid and what remains. */
export interface Parts {
  minimum: number;
  paid: number;
  remaining: number;
  /** Whether a payment of this bill spent points already (points go to one part only). */
  pointsSpent: boolean;
}

/** The declined attempt that 'Попробовать снова' opens the bill with: what failed and what is kept. */
export interface Retry {
  cardTypeOID: string;
  email: string | null;
  ownAttempt: boolean;
  /** What it tried to pay, roubles, and why the bank declined it (null: the bank gave no reason the payer can act on). */
  amount: number;
  reason: DeclineReason | null;
  /** The attempt was a hold on the card that was let go, nothing taken: not a decline, and said so. */
  released?: boolean;
}

/** A hold on the payer's card that was let go: the way it was made with and the amount held, roubles. */
export interface ReleasedHold {
  cardTypeOID: string;
  amount: number;
}

/** One way to pay the bill offers. */
export interface PaymentType {
  OID: string;
  Code: PaymentTypeCode;
  Name: string;
  /** Fee in percent of the sum, when the type has one. */
  Comission?: number;
  /** Fee in roubles for this bill. */
  CommissionSumm: number;
  /** The most one payment this way takes, roubles; absent or null: no cap. */
  Maximum?: number | null;
  IsShowAggregatorOffer: boolean;
  IsShowExecuterOffer: boolean;
}

export interface SentCode {
  purpose: CodePurpose;
  /** Masked by the server: for showing only ('+7 (999) ***-**-01'). */
  phone: string;
  /** Until the code may be sent again; 0: at once. */
  secondsLeft: number;
}

export interface OpenAttempt {
  orderId: string;
  cardTypeOID: string;
  code: PaymentTypeCode;
  status: PaymentStatusValue;
  pointsUsed: number;
  /** A bill in parts: the part the attempt pays, roubles; absent on a bill paid whole. */
  part?: number;
  /** Fast payment: the bank-app link, the QR id and the QR's PNG in base64, as Pay answered them. */
  sbp?: { payload: string; qrcId: string; image: string };
}

/** 'refunded': the bill was already paid by another payment, and this one's money was returned. */
export type PaymentStatusValue = 'created' | 'success' | 'declined' | 'refunded';

/**
 * A payment's receipt as the server's records give it: never read from the address bar. Money is roubles with two
 * decimals on the wire. A type, not an interface: the server's schema-derived answer type takes it as a plain object.
 */
export type Receipt = {
  orderId: string;
  status: PaymentStatusValue;
  /** Paid in money, roubles; 0 when points closed the bill. */
  amount: number;
  pointsUsed: number;
  purpose: string;
  /** When the attempt last changed (for a finished one: when the bank's word came), ISO 8601 UTC. */
  at: string;
  /** The way to pay: the type's code and its name as the bill lists it; null when points alone closed the bill. */
  method: { code: string; name: string } | null;
  /** Where the receipt went, masked (the receipt is shown to anyone holding the bill's link). */
  email: string | null;
  /** The bill is paid: by this payment, or (a declined one) by another. */
  billPaid: boolean;
  /** What was bought: the bill's positions at their full price (roubles); the points are the discount line below them. */
  items: ReceiptItem[];
  /** The service fee of the way paid, roubles; 0: none. */
  fee: number;
  /** A fiscal receipt went with the bank's order: the bank's cash register e-mails it to `email`. */
  fiscal: boolean;
  /** The card paid (or declined) with, as the acquirer masks it ('411111**1111'); null: no card (fast payment, points). */
  card: string | null;
  /** Why a declined payment was declined, when the bank said why; null otherwise. */
  declineReason: DeclineReason | null;
  /**
   * A declined payment's other way forward: the fee of the bill's fast payment, roubles (0: none); null when the bill has
   * no fast payment, or this payment was one.
   */
  fastPaymentFee: number | null;
  /** Where 'Вернуться в магазин' leads: the bill's return address; null: the merchant gave none. */
  returnUrl: string | null;
  /** Of a bill paid in parts, what remains to pay after this payment, roubles; absent or null: a bill paid whole. */
  remaining?: number | null;
  /**
   * What the merchant's refunds have given back (roubles) and when last, ISO 8601 UTC; `whole`: all of the payment. null:
   * nothing given back.
   */
  refund: RefundNote | null;
  /**
   * The goods were handed over: when (ISO 8601 UTC) and where the closing receipt (full settlement) of this payment went,
   * masked (its e-mail, else its phone); absent or null: not handed over.
   */
  handover?: HandoverNote | null;
};

export type HandoverNote = { at: string; sentTo: string | null };

export type RefundNote = { amount: number; at: string; whole: boolean };

/** A position of the receipt. `vat`: the fiscal VAT code (`none`, `vat20`, `vat22`, `vat122`, …). */
export type ReceiptItem = { name: string; quantity: number; price: number; amount: number; vat: string };
