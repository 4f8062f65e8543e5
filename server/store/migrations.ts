/**
 * Schema migrations, applied in order on start. Each entry runs once; `PRAGMA user_version`
 * remembers how many have run. Never edit a shipped entry: append a new one.
 * Money is integer kopecks everywhere in the store.
 */
export const migrations: readonly string[] = [
  // 1: bills, their payment types, payment attempts, sessions, loyalty accounts, points ledger.
  `
  CREATE TABLE loyalty_accounts (
    id            INTEGER PRIMARY KEY,
    oid           TEXT NOT NULL UNIQUE,
    phone         TEXT NOT NULL UNIQUE,
    surname       TEXT NOT NULL DEFAULT '',
    name          TEXT NOT NULL DEFAULT '',
    patronymic    TEXT NOT NULL DEFAULT '',
    email         TEXT,
    picture       TEXT,
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL
  );

  CREATE TABLE bills (
    oid                 TEXT PRIMARY KEY,
    product             TEXT NOT NULL CHECK (product IN ('realty', 'auto')),
    object_type         TEXT NOT NULL DEFAULT 'bill',
    purpose             TEXT NOT NULL,
    sum_kopecks         INTEGER NOT NULL CHECK (sum_kopecks > 0),
    client_name         TEXT NOT NULL DEFAULT '',
    client_phone        TEXT,
    client_email        TEXT,
    bill_email          TEXT,
    cust_no             TEXT,
    no_reg              INTEGER NOT NULL DEFAULT 1,
    points_enabled      INTEGER NOT NULL DEFAULT 0,
    useful_points_limit INTEGER NOT NULL DEFAULT 0 CHECK (useful_points_limit >= 0),
    status              TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid')),
    paid_order_id       TEXT,
    copied_from         TEXT,
    created_at          INTEGER NOT NULL
  );

  CREATE TABLE payment_types (
    oid                   TEXT PRIMARY KEY,
    bill_oid              TEXT NOT NULL REFERENCES bills(oid) ON DELETE CASCADE,
    position              INTEGER NOT NULL,
    code                  TEXT NOT NULL CHECK (code IN ('ALL', 'SBP', 'SberPaySite', 'SberPaySiteP', 'AllSberP')),
    name                  TEXT NOT NULL,
    commission_kopecks    INTEGER NOT NULL DEFAULT 0 CHECK (commission_kopecks >= 0),
    show_aggregator_offer INTEGER NOT NULL DEFAULT 0,
    show_executer_offer   INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX payment_types_by_bill ON payment_types(bill_oid, position);

  CREATE TABLE payment_attempts (
    order_id           TEXT PRIMARY KEY,
    bill_oid           TEXT NOT NULL REFERENCES bills(oid),
    card_type_oid      TEXT NOT NULL REFERENCES payment_types(oid),
    amount_kopecks     INTEGER NOT NULL CHECK (amount_kopecks >= 0),
    commission_kopecks INTEGER NOT NULL DEFAULT 0,
    points_used        INTEGER NOT NULL DEFAULT 0 CHECK (points_used >= 0),
    email              TEXT,
    user_oid           TEXT,
    manager_id         TEXT,
    status             TEXT NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'success', 'declined')),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
  );
  -- At most one pending attempt per bill, type and amounts: a double Pay, a retry or concurrent
  -- requests find the same attempt instead of charging twice.
  CREATE UNIQUE INDEX one_pending_attempt
    ON payment_attempts(bill_oid, card_type_oid, amount_kopecks, points_used)
    WHERE status = 'created';

  CREATE TABLE points_ledger (
    id         INTEGER PRIMARY KEY,
    cust_no    TEXT NOT NULL,
    delta      INTEGER NOT NULL,
    reason     TEXT NOT NULL,
    order_id   TEXT UNIQUE,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX points_ledger_by_customer ON points_ledger(cust_no);

  CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    csrf_token TEXT NOT NULL,
    account_id INTEGER REFERENCES loyalty_accounts(id),
    created_at INTEGER NOT NULL,
    seen_at    INTEGER NOT NULL
  );
  `,
  // 2: SMS codes (hashed), per-phone guards, phone verifications of a session, the SMS outbox, free calls,
  // and the token checkUser hands out for get-user.
  `
  CREATE TABLE sms_codes (
    id          INTEGER PRIMARY KEY,
    phone       TEXT NOT NULL,
    purpose     TEXT NOT NULL CHECK (purpose IN ('forgot-password', 'register', 'use-points')),
    -- The customer whose points a use-points code confirms; null for the other purposes.
    cust_no     TEXT,
    salt        TEXT NOT NULL,
    code_hash   TEXT NOT NULL,
    wrong_tries INTEGER NOT NULL DEFAULT 0,
    state       TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'used', 'void')),
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
  );
  CREATE INDEX sms_codes_by_phone ON sms_codes(phone, created_at);

  -- What a phone has done lately, whoever asked: wrong codes in a row, a 24-hour block, a captcha demand.
  CREATE TABLE phone_guards (
    phone            TEXT PRIMARY KEY,
    wrong_streak     INTEGER NOT NULL DEFAULT 0 CHECK (wrong_streak >= 0),
    blocked_until    INTEGER NOT NULL DEFAULT 0,
    captcha_required INTEGER NOT NULL DEFAULT 0,
    updated_at       INTEGER NOT NULL
  );

  -- A phone proven by a code in one session, for one purpose; registration and restore consume theirs.
  CREATE TABLE phone_verifications (
    id          INTEGER PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON UPDATE CASCADE ON DELETE CASCADE,
    phone       TEXT NOT NULL,
    purpose     TEXT NOT NULL,
    cust_no     TEXT,
    verified_at INTEGER NOT NULL,
    consumed_at INTEGER
  );
  CREATE INDEX phone_verifications_by_session ON phone_verifications(session_id, purpose);

  CREATE TABLE sms_outbox (
    id         INTEGER PRIMARY KEY,
    phone      TEXT NOT NULL,
    text       TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX sms_outbox_by_phone ON sms_outbox(phone, id);

  CREATE TABLE free_calls (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON UPDATE CASCADE ON DELETE CASCADE,
    phone      TEXT NOT NULL,
    locked_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    called_at  INTEGER
  );
  CREATE INDEX free_calls_by_phone ON free_calls(phone, expires_at);

  ALTER TABLE sessions ADD COLUMN user_token TEXT;
  `,
  // 3: security (issue 12). Who asked for each code, the session (distinct phones per session; which phone a free call
  // may sign in) and the client's address (burst and hourly caps per address); at most one waiting free-call lock
  // per phone; indexes for the sweep of expired sessions.
  `
  ALTER TABLE sms_codes ADD COLUMN session_id TEXT REFERENCES sessions(id) ON UPDATE CASCADE ON DELETE SET NULL;
  ALTER TABLE sms_codes ADD COLUMN client_address TEXT;
  CREATE INDEX sms_codes_by_session ON sms_codes(session_id, created_at);
  CREATE INDEX sms_codes_by_address ON sms_codes(client_address, created_at);

  DELETE FROM free_calls WHERE called_at IS NULL AND id NOT IN (SELECT MAX(id) FROM free_calls WHERE called_at IS NULL GROUP BY phone);
  CREATE UNIQUE INDEX one_waiting_free_call ON free_calls(phone) WHERE called_at IS NULL;
  CREATE INDEX free_calls_by_session ON free_calls(session_id, phone);

  CREATE INDEX sessions_by_seen ON sessions(seen_at);
  CREATE INDEX sessions_by_creation ON sessions(created_at);
  `,
];
