/** The desk API's answers, as the page reads them (the server's views: server/desk/views.ts, billPage.ts, figures.ts). */
import type { Permission, Role } from './rules/permissions';

export interface Money {
  value: string;
  currency: 'RUB';
}

export type BillStatus = 'unpaid' | 'partially_paid' | 'held' | 'paid' | 'handed_over' | 'cancelled' | 'expired';
export const BILL_STATUSES: readonly BillStatus[] = ['unpaid', 'partially_paid', 'held', 'paid', 'handed_over', 'cancelled', 'expired'];

export interface Me {
  email: string;
  name: string;
  role: Role;
  permissions: Permission[];
  mustChangePassword: boolean;
}

/** GET /session, and what signing in, out or setting a password answer. */
export interface SessionAnswer {
  csrfToken: string;
  staff: Me | null;
  /** The session the page had has just ended (idle too long). */
  ended: boolean;
}

export interface BillListItem {
  objectOID: string;
  purpose: string;
  amount: Money;
  status: BillStatus;
  customer: { name: string; phone: string | null; email: string | null };
  createdAt: string;
  paidAt: string | null;
}

export interface BillsAnswer {
  bills: BillListItem[];
  page: number;
  pageSize: number;
  total: number;
}

export interface BillsQuery {
  q: string;
  statuses: BillStatus[];
  page: number;
}

export interface Refund {
  id: string;
  orderId: string;
  amount: Money;
  status: 'pending' | 'succeeded' | 'failed';
  reason: string | null;
  automatic: boolean;
  items: { positionId: number; quantity: number; amount: Money }[];
  acquirerAnswer: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/**
 * What a member of staff may do now, as the server offers it: each is a button and a confirmation. A payment's: a
 * refund (at most `max`), a hold's capture (all or a part of `max`, what is held) and release; the bill's: its handover
 * (`max` its amount). A kind the page does not know yet is not shown.
 */
export type PaymentAction = { kind: 'refund' | 'capture' | 'release'; max: Money };
export type BillAction = { kind: 'handover'; max: Money };
export type DeskAction = PaymentAction | BillAction;
export type DeskActionKind = DeskAction['kind'];

export interface ClosingReceipt {
  orderId: string;
  receiptId: string | null;
  status: 'pending' | 'registered' | 'failed';
  amount: Money;
  error?: string;
}

export interface Payment {
  orderId: string;
  method: string;
  amount: Money;
  commission: Money;
  /** Its part of the bill (the amount is the part, plus the fee, less the points). */
  part: Money;
  pointsUsed: number;
  status: 'created' | 'held' | 'success' | 'declined' | 'released' | 'refunded';
  /** A hold: when the server releases it by itself. */
  heldUntil: string | null;
  refunded: Money;
  refundable: Money;
  receiptEmail: string | null;
  receipt: { issuer: 'acquirer' | 'merchant'; note: string; taxSystem: string | null; items: { positionId: number; name: string; amount: Money }[] };
  createdAt: string;
  updatedAt: string;
  refunds: Refund[];
  actions: PaymentAction[];
}

export interface BillPosition {
  position: number;
  name: string;
  quantity: number;
  price: Money;
  amount: Money;
  vat: string;
  paymentMethod: string;
  paymentObject: string;
  measure: string | null;
}

export interface BillPage {
  bill: {
    objectOID: string;
    status: BillStatus;
    payUrl: string;
    purpose: string;
    amount: Money;
    paid: Money;
    remaining: Money;
    refunded: Money;
    parts: { minimum: Money } | null;
    capture: 'automatic' | 'manual';
    items: BillPosition[];
    customer: { name: string; phone: string | null; email: string | null; custNo: string | null };
    paymentTypes: { code: string; name: string; commission: Money }[];
    expiresAt: string | null;
    createdAt: string;
    paidAt: string | null;
    closedAt: string | null;
    handedOverAt: string | null;
    payments: Payment[];
    closingReceipts: ClosingReceipt[];
  };
  actions: BillAction[];
  payLink: { url: string; qr: string };
  canSend: { sms: boolean; email: boolean };
  webhooks: {
    id: string;
    type: string;
    state: 'pending' | 'delivered' | 'failed';
    attempts: number;
    createdAt: string;
    deliveredAt: string | null;
    deliveries: { at: string; url: string; statusCode: number | null; error: string | null; durationMs: number }[];
  }[];
  sends: { id: number; channel: 'sms' | 'email'; to: string; state: 'sent' | 'failed'; error: string | null; by: string | null; at: string }[];
  history: AuditLine[];
}

export interface AuditLine {
  id: number;
  at: string;
  by: string;
  action: string;
  subject: string | null;
  details: unknown;
}

export interface AuditAnswer {
  lines: AuditLine[];
  page: number;
  pageSize: number;
  total: number;
}

/** A JSON schema as the API publishes it (the new-bill form reads its fields from it). */
export interface JsonSchema {
  type?: string | string[];
  required?: readonly string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: readonly string[];
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  minItems?: number;
  pattern?: string;
  description?: string;
  maximum?: number;
  minimum?: number;
}

export interface BillForm {
  schema: JsonSchema;
  fiscal: { vat: string; paymentMethod: string; paymentObject: string };
}

/** The merchant API's body of a new bill (createBillBody). */
export interface NewBillBody {
  purpose: string;
  amount: Money;
  customer?: { name?: string; phone?: string; email?: string };
  expiresAt?: string;
  parts?: { minimum: Money };
  capture?: 'automatic' | 'manual';
  items?: { name: string; quantity: number; price: Money; vat: string; paymentMethod: string; paymentObject: string; measure?: string }[];
}

export interface CaptureBody {
  amount?: Money;
}

export interface HandoverAnswer {
  objectOID: string;
  status: 'handed_over';
  handedOverAt: string;
  closingReceipts: ClosingReceipt[];
}

export interface RefundBody {
  amount?: Money;
  reason?: string;
}

export interface FieldProblem {
  field: string;
  message: string;
}

export interface PeriodFigures {
  from: string;
  count: number;
  sum: Money;
  byMethod: { method: string; count: number; sum: Money }[];
}

export interface Figures {
  today: PeriodFigures;
  week: PeriodFigures;
  month: PeriodFigures;
  days: { date: string; count: number; sum: Money }[];
}

export interface OfferDocument {
  title: string;
  text: string;
}

export interface Settings {
  name: string;
  supportPhone: string;
  supportEmail: string;
  offers: { aggregator: OfferDocument; executer: OfferDocument };
  webhookUrl: string | null;
  webhookUrlDefault: string | null;
  logo: { type: string; url: string } | null;
  blanks: string[];
  logoTypes: string[];
  logoMaxBytes: number;
}

export type SettingsChange = Partial<Pick<Settings, 'name' | 'supportPhone' | 'supportEmail' | 'offers'>> & { webhookUrl?: string | null };

export interface TestDelivery {
  url: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  delivered: boolean;
}

export interface StaffMember {
  id: number;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  locked: boolean;
  mustChangePassword: boolean;
  demo: boolean;
  createdAt: string;
}
