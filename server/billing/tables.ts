/** The billing tables: bills and their payment types (the ways a bill may be paid, each with its commission). */
import type { Generated, Selectable } from 'kysely';
import type { Measure, PaymentMethod, PaymentObject, Vat } from './fiscalCodes';

import type { PaymentTypeCode } from '../../src/services/rules/paymentKinds';
import type { BillState } from '../lifecycle/bill';

export type { PaymentTypeCode };

export interface BillsTable {
  /** The merchant's id of the bill: the merchant API's name for it, never the page's. */
  oid: string;
  /**
   * The bill's public link id (`/pay/<link_id>`), the page's only name for it: unguessable, or for a demo bill and its
   * sandbox copies the objectOID itself (payLinks.ts). Unique; every bill has one.
   */
  link_id: string;
  product: 'realty' | 'auto';
  object_type: string;
  purpose: string;
  sum_kopecks: number;
  client_name: string;
  client_phone: string | null;
  client_email: string | null;
  bill_email: string | null;
  cust_no: string | null;
  no_reg: number;
  points_enabled: number;
  useful_points_limit: number;
  /** The bill's state in its chart (lifecycle/bill.ts); `status` and `closed_as` are the words it is read by, written with it. */
  state: Generated<BillState>;
  status: 'open' | 'paid';
  paid_order_id: string | null;
  copied_from: string | null;
  created_at: number;
  /** When the bill stops being payable (null: never); the expiry sweep then closes it as 'expired'. */
  expires_at: number | null;
  /**
   * The least one payment of the bill pays, when the merchant lets it be paid in parts (or what remains, when less);
   * null: one payment of the whole.
   */
  part_minimum_kopecks: Generated<number | null>;
  /** Where the payer goes back to the merchant's shop after paying (null: nowhere). */
  return_url: string | null;
  paid_at: number | null;
  /** An open bill closed without payment: cancelled by the merchant or expired (null: still payable). */
  closed_as: 'cancelled' | 'expired' | null;
  closed_at: number | null;
  /** How its payment takes the money: at once (`automatic`), or held on the card until the merchant captures it (`manual`). */
  capture: Generated<'automatic' | 'manual'>;
  /** When the merchant handed the goods over (the bill's chart's handedOver); null: not yet. */
  handed_over_at: Generated<number | null>;
}
export type BillRow = Selectable<BillsTable>;

export interface PaymentTypesTable {
  oid: string;
  bill_oid: string;
  position: number;
  code: PaymentTypeCode;
  name: string;
  commission_kopecks: number;
  show_aggregator_offer: number;
  show_executer_offer: number;
  /** The most one payment this way takes (the fast-payment system's limit, a bank's); null: no cap. */
  maximum_kopecks: Generated<number | null>;
}
export type PaymentTypeRow = Selectable<PaymentTypesTable>;

/** What a position of a receipt is: a bill's as the merchant gave it, an attempt's as charged (payments/tables.ts). */
export interface PositionColumns {
  name: string;
  /** Thousandths of a unit (the receipt's three decimals). */
  quantity_milli: number;
  price_kopecks: number;
  /** quantity × price, rounded to the kopeck; the bill's positions add up to its sum. */
  amount_kopecks: number;
  vat: Vat;
  payment_method: PaymentMethod;
  payment_object: PaymentObject;
  measure: Measure | null;
}

/** A position of a bill as the merchant gave it (a bill without positions has none stored: billing/items.ts). */
export interface BillItemsTable extends PositionColumns {
  bill_oid: string;
  /** 1, 2, … in the merchant's order. */
  position: number;
}
export type BillItemRow = Selectable<BillItemsTable>;

declare module '../store/database' {
  interface Database {
    bills: BillsTable;
    bill_items: BillItemsTable;
    payment_types: PaymentTypesTable;
  }
}


/**
 * What a new bill is made of: not its state, which is its chart's first (open), nor the times it gets later. (`status`
 * may be given as 'open', what every new bill is.)
 */
export type NewBill = Omit<
  BillRow,
  'state' | 'status' | 'created_at' | 'paid_order_id' | 'expires_at' | 'return_url' | 'paid_at' | 'closed_as' | 'closed_at' | 'capture' | 'part_minimum_kopecks' | 'handed_over_at'
> &
  Partial<Pick<BillRow, 'expires_at' | 'return_url' | 'capture' | 'part_minimum_kopecks'>> & { status?: 'open' };
