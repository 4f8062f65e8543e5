/**
 * The shapes the page and the server exchange (roubles as numbers with two decimals). The ones the server builds too
 * (the bill data, its receipt, the code purposes and payment-type codes) have their one definition in rules/.
 */
import type { PaymentStatusValue, Receipt } from './rules/billData';

export type { Bill, OpenAttempt, PaymentStatusValue, PaymentType, Receipt, ReceiptItem, SentCode } from './rules/billData';
export type { CodePurpose } from './rules/codePurposes';
export type { PaymentTypeCode } from './rules/paymentKinds';

/** The signed-in loyalty-programme user. */
export interface LoyaltyUser {
  email: string | null;
  name: string;
  phone: string;
  oid: string;
  picture: string | null;
}

export interface PaymentUrlRequest {
  pointsSum: number | null;
  /** The part of a bill in parts this payment pays, roubles; null: what remains, or the way's cap when lower. */
  partSum?: number | null;
  objectOID: string;
  cardTypeOID: string | null;
  email: string | null;
  userOID: string | null;
}

export interface PaymentUrlResponse {
  success?: boolean;
  isClosedWithoutProcessing?: boolean;
  error?: string;
  info?: {
    orderId?: string;
    formUrl?: string;
    bankInvoiceId?: string;
    data?: { payload?: string; qrcId?: string; image?: { content?: string } };
  };
}

/** A hold on the payer's card: the amount held, roubles, and when the hold ends at the latest (ISO 8601 UTC). */
export interface Hold {
  amount: number;
  until: string;
}

export interface PaymentStatusResponse {
  /** 'held': the money is blocked on the card until the merchant captures or releases it; 'released': let go. */
  status: PaymentStatusValue | 'held' | 'released' | null;
  /** With 'held' only. */
  hold?: Hold;
  objectOID?: string;
  /** With a final status only. */
  receipt?: Receipt;
}

export type OfferKind = 'aggregator' | 'executor';

/** What the payer asks for with a code, as the step's form gave it: the phone the code goes to, and what it unlocks. */
export type CodeRequest =
  /** `points` null: asked before a reload and not kept, so not known; a right code proves the phone and the payer chooses again. */
  | { purpose: 'use-points'; phone: string; points: number | null }
  | { purpose: 'forgot-password'; phone: string }
  | { purpose: 'register'; phone: string; form: RegisterForm };

/** The number the payer calls for the free call, as the provider gave it: digits for the `tel:` link, and as read. */
export interface FreeCallNumber {
  callPhone: string;
  callPhonePretty: string;
}

/** Where a free call stands by the server's word: the call confirmed it, still waiting, over, or claimed by two pages. */
export type FreeCallState = 'confirmed' | 'waiting' | 'ended' | 'conflict';

export interface RegisterForm {
  surname: string;
  name: string;
  patronymic: string;
  phone: string;
  privacy: boolean;
}
