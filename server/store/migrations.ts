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
];
