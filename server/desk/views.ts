/** The desk's answers built from rows: a member of staff, a bill in a list, a line of the audit log. */
import { billStatus, type BillStatus } from '../billing/status';
import type { BillRow } from '../billing/tables';
import { iso, money } from '../merchant/views';
import { permissionsOf } from '../../src/desk/services/rules/permissions';
import type { Staff } from './access';
import type { AuditRow, StaffRow } from './tables';

/** Every status a bill may be in, as the list's filter offers them. */
export const BILL_STATUSES: readonly BillStatus[] = ['unpaid', 'partially_paid', 'held', 'paid', 'handed_over', 'cancelled', 'expired'];

/** The one signed in, with what their role lets them do (the page hides the rest). */
export const meView = (staff: Staff) => ({
  email: staff.email,
  name: staff.name,
  role: staff.role,
  permissions: permissionsOf(staff.role),
  mustChangePassword: staff.mustChangePassword,
});

export const staffView = (staff: StaffRow, now: number) => ({
  id: staff.id,
  email: staff.email,
  name: staff.name,
  role: staff.role,
  disabled: staff.disabled_at !== null,
  locked: staff.locked_until !== null && staff.locked_until > now,
  mustChangePassword: staff.must_change_password === 1,
  demo: staff.demo === 1,
  createdAt: iso(staff.created_at)!,
});

export const billListItem = (bill: BillRow, now: number) => ({
  objectOID: bill.oid,
  purpose: bill.purpose,
  amount: money(bill.sum_kopecks),
  status: billStatus(bill, now),
  customer: { name: bill.client_name, phone: bill.client_phone, email: bill.client_email },
  createdAt: iso(bill.created_at)!,
  paidAt: iso(bill.paid_at),
});

export const auditView = (line: AuditRow) => ({
  id: line.id,
  at: iso(line.created_at)!,
  by: line.staff_email,
  action: line.action,
  subject: line.subject,
  details: line.details ? (JSON.parse(line.details) as unknown) : null,
});
