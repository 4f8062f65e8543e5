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
  /** What checkUser handed out for get-user; null until asked, cleared on logout. */
  user_token: string | null;
}

export type CodePurpose = 'forgot-password' | 'register' | 'use-points';

export interface SmsCodeRow {
  id: number;
  phone: string;
  purpose: CodePurpose;
  cust_no: string | null;
  salt: string;
  code_hash: string;
  wrong_tries: number;
  state: 'active' | 'used' | 'void';
  created_at: number;
  expires_at: number;
  /** Who asked for the code: the session (null once it is gone) and the client's address. */
  session_id: string | null;
  client_address: string | null;
}

export interface PhoneGuardRow {
  phone: string;
  wrong_streak: number;
  blocked_until: number;
  captcha_required: number;
  updated_at: number;
}

export interface VerificationRow {
  id: number;
  session_id: string;
  phone: string;
  purpose: CodePurpose;
  cust_no: string | null;
  verified_at: number;
  consumed_at: number | null;
}

export interface OutboxRow {
  id: number;
  phone: string;
  text: string;
  created_at: number;
}

export interface FreeCallRow {
  id: number;
  session_id: string;
  phone: string;
  locked_at: number;
  expires_at: number;
  called_at: number | null;
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

/** What the CSRF check needs of a session on every POST: its token and its times (for the expiry). */
export type SessionKey = Pick<SessionRow, 'csrf_token' | 'created_at' | 'seen_at'>;

/**
 * Every query the server makes, as named functions over prepared statements.
 * Handlers call these and never write SQL themselves.
 */
/** How many sessions' CSRF tokens the store remembers; the oldest is forgotten first. */
const CSRF_CACHE_SIZE = 10_000;

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
    // The status poll in one lookup: the bill (to tell a wrong link) and its attempt's status, if the order is its.
    statusOfOrder: db.prepare<[string, string], { bill: string; status: PaymentStatus | null }>(
      `SELECT b.oid AS bill, a.status AS status FROM bills b
         LEFT JOIN payment_attempts a ON a.order_id = ? AND a.bill_oid = b.oid
       WHERE b.oid = ?`,
    ),
    setAttemptPayer: db.prepare<[string | null, string | null, string | null, number, string]>(
      `UPDATE payment_attempts SET email = ?, user_oid = ?, manager_id = ?, updated_at = ? WHERE order_id = ? AND status = 'created'`,
    ),
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
    keyOfSession: db.prepare<[string], SessionKey>('SELECT csrf_token, created_at, seen_at FROM sessions WHERE id = ?'),
    insertSession: db.prepare('INSERT INTO sessions (id, csrf_token, account_id, created_at, seen_at) VALUES (@id, @csrf_token, NULL, @now, @now)'),
    touchSession: db.prepare<[number, string]>('UPDATE sessions SET seen_at = ? WHERE id = ?'),
    deleteSession: db.prepare<[string]>('DELETE FROM sessions WHERE id = ?'),
    sweepSessions: db.prepare<[number, number], { id: string }>('DELETE FROM sessions WHERE seen_at <= ? OR created_at <= ? RETURNING id'),
    accountByPhone: db.prepare<[string], AccountRow>('SELECT * FROM loyalty_accounts WHERE phone = ?'),
    accountById: db.prepare<[number], AccountRow>('SELECT * FROM loyalty_accounts WHERE id = ?'),
    insertAccount: db.prepare(
      `INSERT INTO loyalty_accounts (oid, phone, surname, name, patronymic, email, picture, password_hash, created_at)
       VALUES (@oid, @phone, @surname, @name, @patronymic, @email, @picture, @password_hash, @now)`,
    ),
    setPassword: db.prepare<[string, number]>('UPDATE loyalty_accounts SET password_hash = ? WHERE id = ?'),

    setSessionAccount: db.prepare<[number | null, number, string]>('UPDATE sessions SET account_id = ?, user_token = NULL, seen_at = ? WHERE id = ?'),
    setUserToken: db.prepare<[string | null, string]>('UPDATE sessions SET user_token = ? WHERE id = ?'),
    renameSession: db.prepare<[string, string]>('UPDATE sessions SET id = ? WHERE id = ?'),

    insertCode: db.prepare(
      `INSERT INTO sms_codes (phone, purpose, cust_no, salt, code_hash, state, created_at, expires_at, session_id, client_address)
       VALUES (@phone, @purpose, @cust_no, @salt, @code_hash, 'active', @now, @expires_at, @session_id, @client_address)`,
    ),
    activeCode: db.prepare<[string, CodePurpose, number], SmsCodeRow>(
      `SELECT * FROM sms_codes WHERE phone = ? AND purpose = ? AND state = 'active' AND expires_at > ? ORDER BY id DESC LIMIT 1`,
    ),
    voidActiveCodes: db.prepare<[string, CodePurpose]>(`UPDATE sms_codes SET state = 'void' WHERE phone = ? AND purpose = ? AND state = 'active'`),
    voidAllCodesOfPhone: db.prepare<[string]>(`UPDATE sms_codes SET state = 'void' WHERE phone = ? AND state = 'active'`),
    setCodeTries: db.prepare<[number, 'active' | 'void', number]>('UPDATE sms_codes SET wrong_tries = ?, state = ? WHERE id = ?'),
    useCode: db.prepare<[number]>(`UPDATE sms_codes SET state = 'used' WHERE id = ? AND state = 'active'`),
    sendsSince: db.prepare<[string, number], { n: number; oldest: number | null; newest: number | null }>(
      'SELECT COUNT(*) AS n, MIN(created_at) AS oldest, MAX(created_at) AS newest FROM sms_codes WHERE phone = ? AND created_at > ?',
    ),
    phonesOfSession: db.prepare<[string, number], { phone: string }>('SELECT DISTINCT phone FROM sms_codes WHERE session_id = ? AND created_at > ?'),
    sendsFromAddress: db.prepare<[string, number], { n: number; oldest: number | null }>(
      'SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM sms_codes WHERE client_address = ? AND created_at > ?',
    ),
    codeSentInSession: db.prepare<[string, string, CodePurpose, number], { id: number }>(
      'SELECT id FROM sms_codes WHERE session_id = ? AND phone = ? AND purpose = ? AND created_at > ? LIMIT 1',
    ),

    guardOf: db.prepare<[string], PhoneGuardRow>('SELECT * FROM phone_guards WHERE phone = ?'),
    saveGuard: db.prepare(
      `INSERT INTO phone_guards (phone, wrong_streak, blocked_until, captcha_required, updated_at)
       VALUES (@phone, @wrong_streak, @blocked_until, @captcha_required, @now)
       ON CONFLICT(phone) DO UPDATE SET wrong_streak = excluded.wrong_streak, blocked_until = excluded.blocked_until,
         captcha_required = excluded.captcha_required, updated_at = excluded.updated_at`,
    ),

    insertVerification: db.prepare(
      `INSERT INTO phone_verifications (session_id, phone, purpose, cust_no, verified_at) VALUES (@session_id, @phone, @purpose, @cust_no, @now)`,
    ),
    openVerification: db.prepare<[string, string, CodePurpose, number], VerificationRow>(
      `SELECT * FROM phone_verifications WHERE session_id = ? AND phone = ? AND purpose = ? AND consumed_at IS NULL AND verified_at > ?
       ORDER BY id DESC LIMIT 1`,
    ),
    customerVerification: db.prepare<[string, string, number], VerificationRow>(
      `SELECT * FROM phone_verifications WHERE session_id = ? AND purpose = 'use-points' AND cust_no = ? AND verified_at > ?
       ORDER BY id DESC LIMIT 1`,
    ),
    consumeVerification: db.prepare<[number, number]>('UPDATE phone_verifications SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL'),

    insertOutbox: db.prepare('INSERT INTO sms_outbox (phone, text, created_at) VALUES (@phone, @text, @now)'),
    outboxOf: db.prepare<[string, number], OutboxRow>('SELECT * FROM sms_outbox WHERE phone = ? ORDER BY id DESC LIMIT ?'),

    insertFreeCall: db.prepare(
      'INSERT INTO free_calls (session_id, phone, locked_at, expires_at) VALUES (@session_id, @phone, @now, @expires_at)',
    ),
    latestFreeCall: db.prepare<[string, string], FreeCallRow>('SELECT * FROM free_calls WHERE session_id = ? AND phone = ? ORDER BY id DESC LIMIT 1'),
    endWaitingFreeCalls: db.prepare<[string]>('DELETE FROM free_calls WHERE phone = ? AND called_at IS NULL'),
    recordCall: db.prepare<[number, string, number]>('UPDATE free_calls SET called_at = ? WHERE phone = ? AND called_at IS NULL AND expires_at > ?'),
  };

  const sessionKeys = new Map<string, SessionKey>();
  const remember = (id: string, key: SessionKey) => {
    sessionKeys.delete(id);
    if (sessionKeys.size >= CSRF_CACHE_SIZE) sessionKeys.delete(sessionKeys.keys().next().value!);
    sessionKeys.set(id, key);
  };

  return {
    db,
    /** The clock every row is written with (tests give a fake one). */
    now,
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
    /** undefined: no such bill; status null: no such order for this bill. */
    statusOfOrder: (orderId: string, billOid: string) => q.statusOfOrder.get(orderId, billOid),
    /** Who pays a pending attempt: the receipt e-mail, the signed-in user and the manager of the latest request. */
    setAttemptPayer: (orderId: string, payer: Pick<AttemptRow, 'email' | 'user_oid' | 'manager_id'>) =>
      q.setAttemptPayer.run(payer.email, payer.user_oid, payer.manager_id, now(), orderId).changes === 1,
    /** Moves a pending attempt to a final status; answers false when it was not pending any more. */
    finishAttempt: (orderId: string, status: Exclude<PaymentStatus, 'created'>) =>
      q.setAttemptStatus.run(status, now(), orderId).changes === 1,
    markBillPaid: (billOid: string, orderId: string) => q.markBillPaid.run(orderId, billOid).changes === 1,
    pointsBalance: (custNo: string) => q.pointsBalance.get(custNo)!.balance,
    addLedgerEntry: (entry: { cust_no: string; delta: number; reason: string; order_id: string | null }) =>
      q.insertLedger.run({ ...entry, now: now() }),
    ledgerOfCustomer: (custNo: string) => q.ledgerOfCustomer.all(custNo),
    sessionById: (id: string) => q.sessionById.get(id),
    /**
     * The session's CSRF token and times, checked on every POST. A session's token never changes, so it is remembered
     * (up to CSRF_CACHE_SIZE sessions) and the status poll, the busiest call, does not read it from disk each time;
     * `fresh` reads it again (another process may have seen the session since). Deleting or renaming a session here
     * forgets it at once.
     */
    sessionKeyOf: (id: string, fresh = false): SessionKey | undefined => {
      const cached = fresh ? undefined : sessionKeys.get(id);
      if (cached !== undefined) return cached;
      const key = q.keyOfSession.get(id);
      if (key === undefined) sessionKeys.delete(id);
      else remember(id, key);
      return key;
    },
    insertSession: (id: string, csrfToken: string) => q.insertSession.run({ id, csrf_token: csrfToken, now: now() }),
    /** The session was used now (its idle time starts again). */
    touchSession: (id: string) => {
      const t = now();
      q.touchSession.run(t, id);
      const cached = sessionKeys.get(id);
      if (cached) remember(id, { ...cached, seen_at: t });
    },
    /** Ends a session: its verifications and free-call locks go with it (ON DELETE CASCADE). */
    deleteSession: (id: string) => {
      sessionKeys.delete(id);
      return q.deleteSession.run(id);
    },
    /** Deletes every session idle since `idleBefore` or begun before `bornBefore`; answers how many. */
    sweepSessions: (idleBefore: number, bornBefore: number) => {
      const gone = q.sweepSessions.all(idleBefore, bornBefore);
      for (const { id } of gone) sessionKeys.delete(id);
      return gone.length;
    },
    accountByPhone: (phone: string) => q.accountByPhone.get(phone),
    accountById: (id: number) => q.accountById.get(id),
    insertAccount: (account: Omit<AccountRow, 'id' | 'created_at'>) => q.insertAccount.run({ ...account, now: now() }),
    setPassword: (accountId: number, passwordHash: string) => q.setPassword.run(passwordHash, accountId),

    /** Signs a session in (or out, with null); a new sign-in never inherits the previous user's token. */
    setSessionAccount: (sessionId: string, accountId: number | null) => q.setSessionAccount.run(accountId, now(), sessionId),
    setUserToken: (sessionId: string, token: string | null) => q.setUserToken.run(token, sessionId),
    /** Gives a session a new id (verifications and free calls follow by ON UPDATE CASCADE). */
    renameSession: (oldId: string, newId: string) => {
      // The old id must stop working at once (a sign-in renames the session against fixation).
      sessionKeys.delete(oldId);
      return q.renameSession.run(newId, oldId);
    },

    insertCode: (code: Pick<SmsCodeRow, 'phone' | 'purpose' | 'cust_no' | 'salt' | 'code_hash' | 'expires_at' | 'session_id' | 'client_address'>) =>
      q.insertCode.run({ ...code, now: now() }),
    /** The newest code of a phone and purpose that may still be entered. */
    activeCode: (phone: string, purpose: CodePurpose) => q.activeCode.get(phone, purpose, now()),
    voidActiveCodes: (phone: string, purpose: CodePurpose) => q.voidActiveCodes.run(phone, purpose),
    voidAllCodesOfPhone: (phone: string) => q.voidAllCodesOfPhone.run(phone),
    setCodeTries: (id: number, wrongTries: number, state: 'active' | 'void') => q.setCodeTries.run(wrongTries, state, id),
    /** Marks a code used; answers false when it was used meanwhile (single use). */
    useCode: (id: number) => q.useCode.run(id).changes === 1,
    /** Codes sent to a phone after a moment: how many, the oldest and the newest send time. */
    sendsSince: (phone: string, since: number) => q.sendsSince.get(phone, since)!,
    /** The phones a session had codes sent to after a moment. */
    phonesOfSession: (sessionId: string, since: number) => q.phonesOfSession.all(sessionId, since).map((row) => row.phone),
    /** Codes sent at the request of a client address after a moment: how many, and the oldest send time. */
    sendsFromAddress: (address: string, since: number) => q.sendsFromAddress.get(address, since)!,
    /** Whether this session had a code of this purpose sent to this phone after a moment. */
    codeSentInSession: (sessionId: string, phone: string, purpose: CodePurpose, since: number) =>
      q.codeSentInSession.get(sessionId, phone, purpose, since) !== undefined,

    guardOf: (phone: string): PhoneGuardRow =>
      q.guardOf.get(phone) ?? { phone, wrong_streak: 0, blocked_until: 0, captcha_required: 0, updated_at: 0 },
    saveGuard: (guard: Omit<PhoneGuardRow, 'updated_at'>) => q.saveGuard.run({ ...guard, now: now() }),

    insertVerification: (v: Pick<VerificationRow, 'session_id' | 'phone' | 'purpose' | 'cust_no'>) => q.insertVerification.run({ ...v, now: now() }),
    openVerification: (sessionId: string, phone: string, purpose: CodePurpose, since: number) =>
      q.openVerification.get(sessionId, phone, purpose, since),
    customerVerification: (sessionId: string, custNo: string, since: number) => q.customerVerification.get(sessionId, custNo, since),
    consumeVerification: (id: number) => q.consumeVerification.run(now(), id).changes === 1,

    insertOutbox: (phone: string, text: string) => q.insertOutbox.run({ phone, text, now: now() }),
    outboxOf: (phone: string, limit: number) => q.outboxOf.all(phone, limit),

    insertFreeCall: (sessionId: string, phone: string, expiresAt: number) =>
      q.insertFreeCall.run({ session_id: sessionId, phone, expires_at: expiresAt, now: now() }),
    latestFreeCall: (sessionId: string, phone: string) => q.latestFreeCall.get(sessionId, phone),
    /** Drops the lock still waiting for a call from this phone, whichever session made it (a newer lock replaces it). */
    endWaitingFreeCalls: (phone: string) => q.endWaitingFreeCalls.run(phone),
    /** The free-call line heard a call from this phone: the one live lock for it, if any, is answered. */
    recordCall: (phone: string) => q.recordCall.run(now(), phone, now()).changes,

    transaction: <T>(work: () => T): T => db.transaction(work).immediate(),
  };
}

export type Store = ReturnType<typeof createStore>;
