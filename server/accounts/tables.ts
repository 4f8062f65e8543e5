/**
 * The accounts tables: sessions, loyalty accounts, the SMS codes with what guards them (per-phone guards, phones
 * proven in a session), the outbox of texts and the free calls' checks.
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

/** What a text in the outbox is: its state at the provider, never its words once it has left the pending state. */
export type TextState = 'pending' | 'accepted' | 'refused' | 'failed' | 'expired';

/**
 * The SMS outbox (accounts/texts.ts): a text to a phone, written in the transaction that decides it and sent after the
 * commit. While pending its words are kept sealed (encrypted) for the retries; once it has left that state they are
 * erased, and what support needs stays: the attempts, the provider's id, status code and delivery, the last error.
 */
export interface SmsMessagesTable {
  id: Generated<number>;
  phone: string;
  kind: 'code' | 'password';
  /** The code a code's text carries: the text is not sent once that code is dead. */
  code_id: number | null;
  /** Who asked (null once the session is gone): the payer's retry of a password text finds it by this. */
  session_id: string | null;
  sealed_text: string | null;
  state: TextState;
  attempts: number;
  next_attempt_at: number;
  /** A sender holds the text until then (the asker's own first attempt, or the worker's). */
  lease_until: number | null;
  /** Never sent after this (a code's text: its code's end). */
  send_until: number;
  sms_id: string | null;
  /** The provider's last word: a refusal's status code, or the text's delivery status. */
  status_code: number | null;
  delivery: 'on the way' | 'delivered' | 'not delivered' | null;
  error: string | null;
  created_at: number;
  accepted_at: number | null;
  status_reads: number;
  /** When the delivery status is read next; null once it is final or no longer asked for. */
  next_status_at: number | null;
  /**
   * A read of the delivery status at the provider holds the text until then (null: never read), and is not given back
   * when it ends: however many readers (the worker, the provider's callbacks, in any process), one read per hold.
   */
  status_read_until: number | null;
}
export type SmsMessageRow = Selectable<SmsMessagesTable>;

export type FreeCallState = 'waiting' | 'confirmed' | 'signed-in' | 'ended' | 'conflict' | 'replaced';

/** A free call: a call check at the provider for one session and phone (accounts/freeCalls.ts). */
export interface FreeCallChecksTable {
  id: Generated<number>;
  session_id: string;
  phone: string;
  check_id: string;
  call_phone: string;
  call_phone_pretty: string;
  state: FreeCallState;
  created_at: number;
  expires_at: number;
  /** A read of the check at the provider is in flight until then (one at a time, across processes). */
  read_until: number | null;
  read_at: number | null;
}
export type FreeCallCheckRow = Selectable<FreeCallChecksTable>;

declare module '../store/database' {
  interface Database {
    sessions: SessionsTable;
    loyalty_accounts: LoyaltyAccountsTable;
    sms_codes: SmsCodesTable;
    phone_guards: PhoneGuardsTable;
    phone_verifications: PhoneVerificationsTable;
    sms_messages: SmsMessagesTable;
    free_call_checks: FreeCallChecksTable;
  }
}
