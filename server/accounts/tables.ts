/**
 * The accounts tables: sessions, loyalty accounts, the SMS codes with what guards them (per-phone guards, phones
 * proven in a session) and the free-call locks.
 */
import type { Generated, Selectable } from 'kysely';
import type { CodePurpose } from '../../src/services/rules/codePurposes';

export type { CodePurpose };

export interface SessionsTable {
  id: string;
  csrf_token: string;
  account_id: number | null;
  created_at: number;
  seen_at: number;
  /** What checkUser handed out for get-user; null until asked, cleared on sign-in and logout. */
  user_token: string | null;
}
export type SessionRow = Selectable<SessionsTable>;

export interface LoyaltyAccountsTable {
  id: Generated<number>;
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
export type AccountRow = Selectable<LoyaltyAccountsTable>;

export interface SmsCodesTable {
  id: Generated<number>;
  phone: string;
  purpose: CodePurpose;
  /** The customer whose points a use-points code confirms; null for the other purposes. */
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
export type SmsCodeRow = Selectable<SmsCodesTable>;

/** What a phone has done lately, whoever asked: wrong codes in a row, a 24-hour block, a captcha demand. */
export interface PhoneGuardsTable {
  phone: string;
  wrong_streak: number;
  blocked_until: number;
  captcha_required: number;
  updated_at: number;
}
export type PhoneGuardRow = Selectable<PhoneGuardsTable>;

/** A phone proven by a code in one session, for one purpose; registration and restore consume theirs. */
export interface PhoneVerificationsTable {
  id: Generated<number>;
  session_id: string;
  phone: string;
  purpose: CodePurpose;
  cust_no: string | null;
  verified_at: number;
  consumed_at: number | null;
}
export type VerificationRow = Selectable<PhoneVerificationsTable>;

export interface FreeCallsTable {
  id: Generated<number>;
  session_id: string;
  phone: string;
  locked_at: number;
  expires_at: number;
  called_at: number | null;
}

declare module '../store/database' {
  interface Database {
    sessions: SessionsTable;
    loyalty_accounts: LoyaltyAccountsTable;
    sms_codes: SmsCodesTable;
    phone_guards: PhoneGuardsTable;
    phone_verifications: PhoneVerificationsTable;
    free_calls: FreeCallsTable;
  }
}
