/**
 * How a bill comes to exist. There is one way in: `createBill`, used by the merchant API, the demo seed and the
 * sandbox's fresh copies alike, which checks every field first. A bill is then unpaid, paid (payments/outcome.ts
 * settles it), cancelled by the merchant or expired at its expiresAt (payments/closing.ts, which ends its attempts).
 */
import crypto from 'node:crypto';
import type { Product } from '../config';
import { paymentKindOf } from '../../src/services/rules/paymentKinds';
import { isObjectOid, isPhone, isPlausibleEmail, isTextLine, OBJECT_OID_PATTERN, TEXT_LINE_PROBLEM } from '../platform/patterns';
import type { Store } from '../store/store';
import { itemProblems, itemRowsOf, type BillItemInput } from './items';
import { newLinkId } from './payLinks';
import { keepSearchWords } from './search';
import { billByOid, insertBill, insertItems, insertType } from './queries';
import type { BillRow, PaymentTypeCode } from './tables';

export interface PaymentTypeInput {
  code: PaymentTypeCode;
  name: string;
  commissionKopecks: number;
  /** The most one payment this way takes; absent or null: no cap. */
  maximumKopecks?: number | null;
  showAggregatorOffer?: boolean;
  showExecuterOffer?: boolean;
}

/** Everything a bill is made of, in the server's terms (kopecks, epoch ms). */
export interface BillInput {
  /** The merchant's id of the bill; generated when absent; unique. */
  objectOID?: string;
  purpose: string;
  sumKopecks: number;
  /** The least one payment pays when the bill may be paid in several (or what remains, when less); null: one payment. */
  partMinimumKopecks?: number | null;
  customer?: { name?: string | null; phone?: string | null; email?: string | null; custNo?: string | null };
  /** The bill's own receipt e-mail (the page's info.Email). */
  billEmail?: string | null;
  /** Pay without a loyalty account (default true). */
  noReg?: boolean;
  points?: { enabled: boolean; usefulLimit: number };
  /** Default: the sandbox's three (card 1.5 %, fast payment free, bank-app pay 0.5 %). */
  paymentTypes?: PaymentTypeInput[];
  expiresAt?: number | null;
  returnUrl?: string | null;
  product?: Product;
  /** The demo bill this one copies (sandbox). */
  copiedFrom?: string | null;
  /** The positions of the fiscal receipt; they must add up to the sum. Absent: one position, the purpose (items.ts). */
  items?: BillItemInput[];
  /** The public link id; only the demo seed gives one (the objectOID), every other bill gets an unguessable one. */
  linkId?: string;
  /** `manual`: its payment holds the money until the merchant captures it (default `automatic`: taken at once). */
  capture?: 'automatic' | 'manual';
}

/** Only a card form can hold money: the fast-payment system and the bank app's widget take it at once. */
export const canHold = (code: PaymentTypeInput['code']) => paymentKindOf(code) === 'redirect';

/** One field's problem, named by its path in the API's body (`customer.phone`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A bill that cannot be made as asked: every problem found, by field. */
export class BillInputError extends Error {
  constructor(readonly fields: FieldProblem[]) {
    super(fields.map((f) => `${f.field}: ${f.message}`).join('; '));
  }
}

/** A bill that cannot change as asked (already paid, cancelled, expired; an objectOID taken). */
export class BillConflict extends Error {
  constructor(
    readonly code: 'bill_exists' | 'bill_paid' | 'bill_held' | 'bill_cancelled' | 'bill_expired',
    message: string,
  ) {
    super(message);
  }
}

export class BillNotFound extends Error {
  constructor() {
    super('No such bill');
  }
}

/**
 * Card 1.5 %, fast payment free, bank-app pay 0.5 % of the sum: the sandbox's usual three; of them, a bill that captures
 * by hand takes only the ways that can hold money.
 */
export const defaultPaymentTypes = (sumKopecks: number, capture: BillInput['capture'] = 'automatic'): PaymentTypeInput[] =>
  (
    [
      { code: 'ALL', name: 'Банковская карта', commissionKopecks: Math.round(sumKopecks * 0.015) },
      { code: 'SBP', name: 'СБП', commissionKopecks: 0 },
      { code: 'SberPaySite', name: 'SberPay', commissionKopecks: Math.round(sumKopecks * 0.005) },
    ] satisfies PaymentTypeInput[]
  ).filter((type) => capture !== 'manual' || canHold(type.code));

const CUST_NO = /^[A-Za-z0-9_-]{1,64}$/;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere; plain http only to this machine (the sandbox's shop). */
function returnUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname)) return null;
  return 'must be https (http only on localhost)';
}

/** Checks a bill's input once, for every way in; answers every problem found. */
export function billInputProblems(input: BillInput, now: number): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  if (input.objectOID !== undefined && !isObjectOid(input.objectOID)) problem('objectOID', `must match ${OBJECT_OID_PATTERN}`);
  // Free text goes on into the acquirer's order, the receipt and the page: one line, no control characters.
  const oneLine = (field: string, text: string | null | undefined) => {
    if (text != null && !isTextLine(text)) problem(field, TEXT_LINE_PROBLEM);
  };
  if (input.purpose.trim() === '' || input.purpose.length > 500) problem('purpose', 'must be 1 to 500 characters');
  oneLine('purpose', input.purpose);
  if (!Number.isSafeInteger(input.sumKopecks) || input.sumKopecks <= 0) problem('amount.value', 'must be more than 0.00');
  const minimum = input.partMinimumKopecks;
  if (minimum != null && (!Number.isSafeInteger(minimum) || minimum <= 0 || minimum > input.sumKopecks)) {
    problem('parts.minimum.value', 'must be more than 0.00 and at most amount.value');
  }
  // A deposit is one hold of the whole amount, captured or released as one: it is not paid in parts.
  if (minimum != null && input.capture === 'manual') problem('parts', 'cannot be given with capture manual: a deposit is held in one payment');
  const customer = input.customer ?? {};
  oneLine('customer.name', customer.name);
  if (customer.phone != null && !isPhone(customer.phone)) problem('customer.phone', 'must be 11 digits starting with 79');
  if (customer.email != null && !isPlausibleEmail(customer.email)) problem('customer.email', 'must be an e-mail address');
  if (customer.custNo != null && !CUST_NO.test(customer.custNo)) problem('customer.custNo', 'must be 1 to 64 letters, digits, _ or -');
  if (input.billEmail != null && !isPlausibleEmail(input.billEmail)) problem('billEmail', 'must be an e-mail address');
  if (input.points?.enabled && !customer.custNo) problem('points.enabled', 'points need customer.custNo');
  if (input.points && (!Number.isSafeInteger(input.points.usefulLimit) || input.points.usefulLimit < 0)) problem('points.usefulLimit', 'must be a whole number, 0 or more');
  const types = input.paymentTypes;
  if (types) {
    if (types.length === 0) problem('paymentTypes', 'must list at least one payment type');
    if (new Set(types.map((t) => t.code)).size !== types.length) problem('paymentTypes', 'each code at most once');
    types.forEach((type, i) => {
      if (!Number.isSafeInteger(type.commissionKopecks) || type.commissionKopecks < 0) problem(`paymentTypes[${i}].commission.value`, 'must be 0.00 or more');
      if (type.name.trim() === '') problem(`paymentTypes[${i}].name`, 'must not be empty');
      oneLine(`paymentTypes[${i}].name`, type.name);
      if (input.capture === 'manual' && !canHold(type.code)) problem(`paymentTypes[${i}].code`, 'cannot hold money: a bill with capture manual takes cards only');
      const maximum = type.maximumKopecks;
      if (maximum != null && (!Number.isSafeInteger(maximum) || maximum <= 0)) problem(`paymentTypes[${i}].maximum.value`, 'must be more than 0.00');
    });
  }
  if (input.items) problems.push(...itemProblems(input.items, input.sumKopecks));
  if (input.expiresAt != null && input.expiresAt <= now) problem('expiresAt', 'must be in the future');
  if (input.returnUrl != null) {
    const why = isTextLine(input.returnUrl) ? returnUrlProblem(input.returnUrl) : TEXT_LINE_PROBLEM;
    if (why) problem('returnUrl', why);
  }
  return problems;
}

/** A new objectOID for a bill the merchant did not name: `bill-` and 24 hex digits. */
const newObjectOid = () => `bill-${crypto.randomBytes(12).toString('hex')}`;

/**
 * Creates an unpaid bill with its payment types, in the caller's transaction (or one of its own). Refuses bad input
 * (BillInputError, every field) and a taken objectOID (BillConflict 'bill_exists').
 */
export function createBill(store: Store, input: BillInput): Promise<BillRow> {
  const problems = billInputProblems(input, store.now());
  if (problems.length > 0) return Promise.reject(new BillInputError(problems));
  return store.transaction(async (tx) => {
    const oid = input.objectOID ?? newObjectOid();
    if (await billByOid(tx, oid)) throw new BillConflict('bill_exists', `A bill with objectOID ${oid} exists already`);
    const customer = input.customer ?? {};
    await insertBill(tx, {
      oid,
      link_id: input.linkId ?? newLinkId(),
      product: input.product ?? 'realty',
      object_type: 'bill',
      purpose: input.purpose,
      sum_kopecks: input.sumKopecks,
      part_minimum_kopecks: input.partMinimumKopecks ?? null,
      client_name: customer.name ?? '',
      client_phone: customer.phone ?? null,
      client_email: customer.email ?? null,
      bill_email: input.billEmail ?? null,
      cust_no: customer.custNo ?? null,
      no_reg: input.noReg === false ? 0 : 1,
      points_enabled: input.points?.enabled ? 1 : 0,
      useful_points_limit: input.points?.usefulLimit ?? 0,
      copied_from: input.copiedFrom ?? null,
      expires_at: input.expiresAt ?? null,
      return_url: input.returnUrl ?? null,
      capture: input.capture ?? 'automatic',
    });
    if (input.items) await insertItems(tx, itemRowsOf(oid, input.items));
    await keepSearchWords(tx, { oid, client_name: customer.name ?? '', client_phone: customer.phone ?? null, client_email: customer.email ?? null });
    // A bill that holds offers of the default ways only those that can hold.
    const types = input.paymentTypes ?? defaultPaymentTypes(input.sumKopecks, input.capture);
    for (const [position, type] of types.entries()) {
      await insertType(tx, {
        oid: `${oid}.${type.code}`,
        bill_oid: oid,
        position,
        code: type.code,
        name: type.name,
        commission_kopecks: type.commissionKopecks,
        maximum_kopecks: type.maximumKopecks ?? null,
        show_aggregator_offer: type.showAggregatorOffer ? 1 : 0,
        show_executer_offer: type.showExecuterOffer ? 1 : 0,
      });
    }
    return (await billByOid(tx, oid))!;
  });
}
