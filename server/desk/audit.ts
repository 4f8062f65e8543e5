/**
 * The audit log: who did what at the desk and when, written in the same transaction as what it records (so a change
 * and its line are there together or not at all), read by admins a page at a time, newest first.
 */
import type { Store } from '../store/store';
import type { Staff } from './access';
import type { AuditRow } from './tables';

/** What the log records. */
export type AuditAction =
  | 'session.signed_in'
  | 'session.signed_out'
  | 'session.locked'
  | 'password.changed'
  | 'bill.issued'
  | 'link.sent'
  | 'link.failed'
  | 'refund.requested'
  | 'hold.captured'
  | 'hold.released'
  | 'bill.handed_over'
  | 'payments.exported'
  | 'settings.changed'
  | 'logo.changed'
  | 'webhook.tested'
  | 'staff.added'
  | 'staff.changed'
  | 'staff.password_reset';

/** Writes a line, in the caller's transaction. */
export async function audit(tx: Store, who: Pick<Staff, 'id' | 'email'>, action: AuditAction, subject: string | null, details: Record<string, unknown> | null = null): Promise<void> {
  await tx.db
    .insertInto('desk_audit')
    .values({
      staff_id: who.id,
      staff_email: who.email,
      action,
      subject,
      details: details ? JSON.stringify(details) : null,
      request_id: tx.requestId,
      created_at: tx.now(),
    })
    .execute();
}

export const AUDIT_PAGE = 50;

/** A page of the log, newest first (page 1 the newest), and how many lines there are. */
export async function auditPage(store: Store, page: number): Promise<{ rows: AuditRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    store.db
      .selectFrom('desk_audit')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(AUDIT_PAGE)
      .offset((page - 1) * AUDIT_PAGE)
      .execute(),
    store.db
      .selectFrom('desk_audit')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The log's lines about one thing (a bill, a payment), oldest first: the bill page's history. */
export const auditOf = (store: Store, subjects: string[]): Promise<AuditRow[]> =>
  subjects.length === 0 ? Promise.resolve([]) : store.db.selectFrom('desk_audit').selectAll().where('subject', 'in', subjects).orderBy('id').limit(200).execute();
