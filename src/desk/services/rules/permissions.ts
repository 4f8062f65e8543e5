/**
 * Who on the merchant's staff may do what at the desk: three roles, each a set of permissions. The server checks the
 * permission of every desk route (403 without it) and tells the page the permissions of the one signed in, which only
 * hides what the server would refuse. One table, read by both: a pure module, like the payer's rules.
 */

export const ROLES = ['manager', 'accountant', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Every permission a desk route may ask for. */
export const PERMISSIONS = [
  /** The bills, their payments, refunds, webhooks and link sends; the payments' figures. */
  'bills.read',
  /** Issue a bill. */
  'bills.issue',
  /** Send a bill's pay link by SMS or e-mail. */
  'links.send',
  /** Refund a payment, whole or in part. */
  'payments.refund',
  /** Capture or release a payment held on the payer's card (a two-stage payment). */
  'payments.capture',
  /** Mark goods or works handed over, which closes a prepayment's receipts. */
  'handover.mark',
  /** Export bills and payments as CSV. */
  'payments.export',
  /** Add staff, change their roles, switch them off. */
  'staff.manage',
  /** The merchant's settings: name, support contacts, logo, offer documents, webhook URL. */
  'settings.manage',
  /** The audit log. */
  'audit.read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const manager: readonly Permission[] = ['bills.read', 'bills.issue', 'links.send'];
const accountant: readonly Permission[] = [...manager, 'payments.refund', 'payments.capture', 'handover.mark', 'payments.export'];
const admin: readonly Permission[] = [...accountant, 'staff.manage', 'settings.manage', 'audit.read'];

const byRole: Record<Role, readonly Permission[]> = { manager, accountant, admin };

/** What a role may do. */
export const permissionsOf = (role: Role): readonly Permission[] => byRole[role];

export const may = (role: Role, permission: Permission): boolean => byRole[role].includes(permission);
