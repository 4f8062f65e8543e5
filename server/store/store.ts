import type { Db } from './db';

/** Rows as they are stored (money in kopecks). */
export interface BillRow {
  oid: string;
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
  status: 'open' | 'paid';
  paid_order_id: string | null;
  copied_from: string | null;
  created_at: number;
}

export interface PaymentTypeRow {
  oid: string;
  bill_oid: string;
  position: number;
  code: 'ALL' | 'SBP' | 'SberPaySite' | 'SberPaySiteP' | 'AllSberP';
  name: string;
  commission_kopecks: number;
  show_aggregator_offer: number;
  show_executer_offer: number;
}

export type PaymentStatus = 'created' | 'success' | 'declined';

export interface AttemptRow {
  order_id: string;
  bill_oid: string;
  card_type_oid: string;
  amount_kopecks: number;
  commission_kopecks: number;
  points_used: number;
  email: string | null;
  user_oid: string | null;
  manager_id: string | null;
  status: PaymentStatus;
  created_at: number;
  updated_at: number;
}

export interface SessionRow {
  id: string;
  csrf_token: string;
  account_id: number | null;
  created_at: number;
  seen_at: number;
}

export interface AccountRow {
  id: number;
  oid: string;
  phone: string;
  surname: string;
  name: string;
  patronymic: string;
  email: string | null;
  picture: string | null;
  password_hash: string;
  created_at: number;
}

export type NewAttempt = Omit<AttemptRow, 'status' | 'created_at' | 'updated_at'>;

/**
 * Every query the server makes, as named functions over prepared statements.
 * Handlers call these and never write SQL themselves.
 */
export function createStore(db: Db, now: () => number) {
  const q = {
    billByOid: db.prepare<[string], BillRow>('SELECT * FROM bills WHERE oid = ?'),
    typesOfBill: db.prepare<[string], PaymentTypeRow>('SELECT * FROM payment_types WHERE bill_oid = ? ORDER BY position'),
    typeOfBill: db.prepare<[string, string], PaymentTypeRow>('SELECT * FROM payment_types WHERE oid = ? AND bill_oid = ?'),
    countBills: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM bills'),
    insertBill: db.prepare(
      `INSERT INTO bills (oid, product, object_type, purpose, sum_kopecks, client_name, client_phone, client_email, bill_email,
         cust_no, no_reg, points_enabled, useful_points_limit, status, copied_from, created_at)
       VALUES (@oid, @product, @object_type, @purpose, @sum_kopecks, @client_name, @client_phone, @client_email, @bill_email,
         @cust_no, @no_reg, @points_enabled, @useful_points_limit, @status, @copied_from, @created_at)`,
    ),
    insertType: db.prepare(
      `INSERT INTO payment_types (oid, bill_oid, position, code, name, commission_kopecks, show_aggregator_offer, show_executer_offer)
       VALUES (@oid, @bill_oid, @position, @code, @name, @commission_kopecks, @show_aggregator_offer, @show_executer_offer)`,
    ),
    pendingAttempt: db.prepare<[string, string, number, number], AttemptRow>(
      `SELECT * FROM payment_attempts WHERE bill_oid = ? AND card_type_oid = ? AND amount_kopecks = ? AND points_used = ?
         AND status = 'created'`,
    ),
    insertAttempt: db.prepare(
      `INSERT INTO payment_attempts (order_id, bill_oid, card_type_oid, amount_kopecks, commission_kopecks, points_used, email,
         user_oid, manager_id, status, created_at, updated_at)
       VALUES (@order_id, @bill_oid, @card_type_oid, @amount_kopecks, @commission_kopecks, @points_used, @email,
         @user_oid, @manager_id, 'created', @now, @now)`,
    ),
    attemptByOrder: db.prepare<[string], AttemptRow>('SELECT * FROM payment_attempts WHERE order_id = ?'),
    setAttemptStatus: db.prepare<[PaymentStatus, number, string]>(
      `UPDATE payment_attempts SET status = ?, updated_at = ? WHERE order_id = ? AND status = 'created'`,
    ),
    markBillPaid: db.prepare<[string, string]>(`UPDATE bills SET status = 'paid', paid_order_id = ? WHERE oid = ? AND status = 'open'`),
    pointsBalance: db.prepare<[string], { balance: number }>('SELECT COALESCE(SUM(delta), 0) AS balance FROM points_ledger WHERE cust_no = ?'),
    insertLedger: db.prepare(
      'INSERT INTO points_ledger (cust_no, delta, reason, order_id, created_at) VALUES (@cust_no, @delta, @reason, @order_id, @now)',
    ),
    ledgerOfCustomer: db.prepare<[string], { delta: number; reason: string; order_id: string | null }>(
      'SELECT delta, reason, order_id FROM points_ledger WHERE cust_no = ? ORDER BY id',
    ),
    sessionById: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id = ?'),
    insertSession: db.prepare('INSERT INTO sessions (id, csrf_token, account_id, created_at, seen_at) VALUES (@id, @csrf_token, NULL, @now, @now)'),
    accountByPhone: db.prepare<[string], AccountRow>('SELECT * FROM loyalty_accounts WHERE phone = ?'),
    accountById: db.prepare<[number], AccountRow>('SELECT * FROM loyalty_accounts WHERE id = ?'),
    insertAccount: db.prepare(
      `INSERT INTO loyalty_accounts (oid, phone, surname, name, patronymic, email, picture, password_hash, created_at)
       VALUES (@oid, @phone, @surname, @name, @patronymic, @email, @picture, @password_hash, @now)`,
    ),
  };

  return {
    db,
    billByOid: (oid: string) => q.billByOid.get(oid),
    typesOfBill: (billOid: string) => q.typesOfBill.all(billOid),
    typeOfBill: (typeOid: string, billOid: string) => q.typeOfBill.get(typeOid, billOid),
    isEmpty: () => q.countBills.get()!.n === 0,
    insertBill: (bill: Omit<BillRow, 'created_at' | 'paid_order_id'>) => q.insertBill.run({ ...bill, created_at: now() }),
    insertType: (type: PaymentTypeRow) => q.insertType.run(type),
    pendingAttempt: (billOid: string, typeOid: string, amountKopecks: number, points: number) =>
      q.pendingAttempt.get(billOid, typeOid, amountKopecks, points),
    insertAttempt: (attempt: NewAttempt) => q.insertAttempt.run({ ...attempt, now: now() }),
    attemptByOrder: (orderId: string) => q.attemptByOrder.get(orderId),
    /** Moves a pending attempt to a final status; answers false when it was not pending any more. */
    finishAttempt: (orderId: string, status: Exclude<PaymentStatus, 'created'>) =>
      q.setAttemptStatus.run(status, now(), orderId).changes === 1,
    markBillPaid: (billOid: string, orderId: string) => q.markBillPaid.run(orderId, billOid).changes === 1,
    pointsBalance: (custNo: string) => q.pointsBalance.get(custNo)!.balance,
    addLedgerEntry: (entry: { cust_no: string; delta: number; reason: string; order_id: string | null }) =>
      q.insertLedger.run({ ...entry, now: now() }),
    ledgerOfCustomer: (custNo: string) => q.ledgerOfCustomer.all(custNo),
    sessionById: (id: string) => q.sessionById.get(id),
    insertSession: (id: string, csrfToken: string) => q.insertSession.run({ id, csrf_token: csrfToken, now: now() }),
    accountByPhone: (phone: string) => q.accountByPhone.get(phone),
    accountById: (id: number) => q.accountById.get(id),
    insertAccount: (account: Omit<AccountRow, 'id' | 'created_at'>) => q.insertAccount.run({ ...account, now: now() }),
    transaction: <T>(work: () => T): T => db.transaction(work).immediate(),
  };
}

export type Store = ReturnType<typeof createStore>;
