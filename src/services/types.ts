/** The shapes of SPEC §3 as they travel on the wire (roubles as numbers with two decimals). */

export type PaymentTypeCode = 'ALL' | 'SBP' | 'SberPaySite' | 'SberPaySiteP' | 'AllSberP';

export interface PaymentType {
  OID: string;
  Code: PaymentTypeCode;
  Name: string;
  /** Fee in percent of the sum, when the type has one. */
  Comission?: number;
  /** Fee in roubles for this bill. */
  CommissionSumm: number;
  IsShowAggregatorOffer: boolean;
  IsShowExecuterOffer: boolean;
}

/** The initial bill data answered by GET /ajax/object-info/{link id}: what the page shows, and nothing more. */
export interface Bill {
  /** The customer: the name; the phone masked by the server ('+7 (999) ***-**-67'); no e-mail (null, never shown). */
  user: { Name: string; Phone: string | null; Email: string | null };
  /** `Email`: the receipt address that prefills the field (the bill's, else its customer's). */
  info: { PaymentPurpose: string; CustNo: string | null; Summ: number; Email: string | null };
  cardTypes: PaymentType[];
  paymentURL: string;
  isBill: boolean;
  /** The bill's public link id (SPEC's name kept): every call of the page names the bill by it. */
  objectOID: string;
  objectType: string;
  noReg: boolean;
  pointsEnabled: boolean;
  usefulPoints: number;
  availablePoints: number;
  /** Where "Вернуться в магазин" leads after paying (issue 14); absent or null: nowhere. */
  returnUrl?: string | null;
  /** The bill's attempt still waiting for its bank, for a reload to resume (issue 17); null when there is none. */
  openAttempt?: OpenAttempt | null;
  /**
   * 'Попробовать снова' after a declined attempt (`?retry=` its order): its way to pay and e-mail, kept. The
   * e-mail is whole only for the session that asked for the attempt (`ownAttempt`), masked for anyone else.
   */
  retry?: { cardTypeOID: string; email: string | null; ownAttempt: boolean } | null;
  /** The code this session had sent and may still enter, for a reload on the code screen (issue 17); null: none. */
  sentCode?: SentCode | null;
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
  /** Fast payment: the bank-app link, the QR id and the QR's PNG in base64, as Pay answered them. */
  sbp?: { payload: string; qrcId: string; image: string };
}

/**
 * A payment's receipt as the server's records give it (issue 17): never read from the address bar. Money is roubles with
 * two decimals on the wire (DESIGN §6). The server builds it with this same type (server/receipt.ts). A type, not an
 * interface: the route's schema-derived answer type takes it as a plain object.
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
};

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

/** 'refunded': the bill was already paid by another payment, and this one's money was returned (issue 13). */
export type PaymentStatusValue = 'created' | 'success' | 'declined' | 'refunded';

export interface PaymentStatusResponse {
  status: PaymentStatusValue | null;
  objectOID?: string;
  /** With a final status only. */
  receipt?: Receipt;
}

export type OfferKind = 'aggregator' | 'executer';

/** What an SMS code confirms (SPEC's "check type"); the server binds each code to one. */
export type CodePurpose = 'forgot-password' | 'register' | 'use-points';

/** What the payer asks for with a code (SPEC §4), as the step's form gave it: the phone the code goes to, and what it unlocks. */
export type CodeRequest =
  /** `points` null: asked before a reload and not kept, so not known; a right code proves the phone and the payer chooses again. */
  | { purpose: 'use-points'; phone: string; points: number | null }
  | { purpose: 'forgot-password'; phone: string }
  | { purpose: 'register'; phone: string; form: RegisterForm };

export interface RegisterForm {
  surname: string;
  name: string;
  patronymic: string;
  phone: string;
  privacy: boolean;
}
