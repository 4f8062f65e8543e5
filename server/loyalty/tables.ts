/** The loyalty table: the points ledger. A customer's balance is the sum of their entries, never a stored number. */
import type { Generated, Selectable } from 'kysely';

export interface PointsLedgerTable {
  id: Generated<number>;
  cust_no: string;
  delta: number;
  reason: string;
  /** The payment that spent the points (unique: an attempt writes its points off once); null for other entries. */
  order_id: string | null;
  /** The refund that gave these points back (unique: once per refund); null for other entries. */
  refund_id: Generated<string | null>;
  created_at: number;
}

declare module '../store/database' {
  interface Database {
    points_ledger: PointsLedgerTable;
  }
}

export type LedgerRow = Selectable<PointsLedgerTable>;
