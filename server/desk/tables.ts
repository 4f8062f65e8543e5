/** The desk's tables: the merchant's staff, their sessions, the audit log and the pay links sent from the desk. */
import type { Generated, Selectable } from 'kysely';
import type { Role } from '../../src/desk/services/rules/permissions';

export interface DeskStaffTable {
  id: Generated<number>;
  /** Lower case: the sign-in name. */
  email: string;
  name: string;
  role: Role;
  password_hash: string;
  /** Signed in with a one-time password: nothing but a new password until it is set. */
  must_change_password: number;
  /** One of the sandbox's demo accounts (none exists with the sandbox off). */
  demo: number;
  /** Wrong passwords in a row; at the limit the account is locked for a while. */
  failed_sign_ins: number;
  locked_until: number | null;
  /** Switched off by an admin: no sign-in, no session. */
  disabled_at: number | null;
  created_at: number;
}
export type StaffRow = Selectable<DeskStaffTable>;

/** A desk session: the desk's cookie names it; null staff before sign-in (its CSRF token guards the sign-in itself). */
export interface DeskSessionsTable {
  id: string;
  staff_id: number | null;
  csrf_token: string;
  created_at: number;
  seen_at: number;
}
export type DeskSessionRow = Selectable<DeskSessionsTable>;

/** Who did what and when at the desk. */
export interface DeskAuditTable {
  id: Generated<number>;
  staff_id: number | null;
  /** Kept as it was, should the account go. */
  staff_email: string;
  action: string;
  /** What it was done to: a bill's objectOID, a payment's orderId, a staff member's e-mail, a setting. */
  subject: string | null;
  /** JSON: the particulars (amounts, a channel, the fields changed). */
  details: string | null;
  request_id: string | null;
  created_at: number;
}
export type AuditRow = Selectable<DeskAuditTable>;

/** A pay link sent from the desk, by SMS or e-mail, and what became of it. */
export interface DeskLinkSendsTable {
  id: Generated<number>;
  bill_oid: string;
  channel: 'sms' | 'email';
  recipient: string;
  state: 'sent' | 'failed';
  /** The SMS provider's id of the text, or the e-mail's Message-ID. */
  provider_id: string | null;
  error: string | null;
  staff_id: number | null;
  created_at: number;
}
export type LinkSendRow = Selectable<DeskLinkSendsTable>;

declare module '../store/database' {
  interface Database {
    desk_staff: DeskStaffTable;
    desk_sessions: DeskSessionsTable;
    desk_audit: DeskAuditTable;
    desk_link_sends: DeskLinkSendsTable;
  }
}
