/**
 * The merchant's staff at the desk: accounts made by an admin or by `npm run desk:user`, each with a role, signing in
 * by e-mail and password. Passwords are hashed as the loyalty accounts' are (scrypt, its cost inside the hash). A
 * password the server made is for one sign-in: then its owner sets their own. Five wrong passwords in a row lock the
 * account for fifteen minutes (the server says so, and checks no password meanwhile). With the sandbox on, one demo
 * account per role exists, its password made once and kept; with it off, none does.
 */
import crypto from 'node:crypto';
import { hashPassword, verifyPassword } from '../accounts/passwords';
import { isPlausibleEmail } from '../platform/patterns';
import { settingOnce } from '../platform/settings';
import type { Store } from '../store/store';
import { ROLES, type Role } from '../../src/desk/services/rules/permissions';
import { activeAdmins, countFailedSignIn, deleteDemoStaff, deleteSessionsOf, insertStaff, staffByEmail, staffById, updateStaff } from './staffQueries';
import type { StaffRow } from './tables';

export const LOCKOUT = { failures: 5, lockMs: 15 * 60_000 } as const;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** A sign-in name as kept: trimmed, lower case. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

// No 0/O, 1/l/I: a person copies this password by eye.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A password the server makes: 14 characters from crypto.randomInt, about 81 bits. */
export function newStaffPassword(length = 14): string {
  let password = '';
  for (let i = 0; i < length; i++) password += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return password;
}

/** Why a password cannot be one, in the desk's words; null when it can. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `не короче ${PASSWORD_MIN} символов`;
  if (password.length > PASSWORD_MAX) return `не длиннее ${PASSWORD_MAX} символов`;
  return null;
}

/** A change to the staff that cannot be made, in the desk's words, by field. */
export class StaffRefused extends Error {
  constructor(
    readonly code: 'invalid_request' | 'staff_exists' | 'not_found' | 'last_admin' | 'wrong_password',
    message: string,
    readonly fields?: { field: string; message: string }[],
  ) {
    super(message);
  }
}

const invalid = (field: string, message: string) => new StaffRefused('invalid_request', 'Проверьте поля формы', [{ field, message }]);

export interface NewStaff {
  email: string;
  role: Role;
  name?: string;
  /** Given: it is the password (no change asked at first sign-in). Absent: a one-time password is made. */
  password?: string;
}

/**
 * Adds a member of staff, or (`replace`) gives an existing one the role and a new password; answers the row and the
 * one-time password made, if one was. The `desk:user` command replaces; the desk's admins add.
 */
export async function putStaff(store: Store, input: NewStaff, cost: number, replace: boolean): Promise<{ staff: StaffRow; oneTimePassword: string | null }> {
  const email = emailKey(input.email);
  if (!isPlausibleEmail(email) || email.length > 254) throw invalid('email', 'адрес электронной почты');
  if (!(ROLES as readonly string[]).includes(input.role)) throw invalid('role', `одна из ролей: ${ROLES.join(', ')}`);
  if ((input.name ?? '').length > 200) throw invalid('name', 'не длиннее 200 символов');
  if (input.password !== undefined) {
    const why = passwordProblem(input.password);
    if (why) throw invalid('password', why);
  }
  const oneTimePassword = input.password === undefined ? newStaffPassword() : null;
  const hash = await hashPassword(input.password ?? oneTimePassword!, cost);
  const mustChange = oneTimePassword ? 1 : 0;
  const staff = await store.transaction(async (tx) => {
    const existing = await staffByEmail(tx, email);
    if (existing && !replace) throw new StaffRefused('staff_exists', 'Сотрудник с таким e-mail уже есть', [{ field: 'email', message: 'уже есть' }]);
    if (existing) {
      await updateStaff(tx, existing.id, {
        role: input.role,
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        password_hash: hash,
        must_change_password: mustChange,
        disabled_at: null,
        failed_sign_ins: 0,
        locked_until: null,
      });
      // A new password ends the sessions the old one opened.
      await deleteSessionsOf(tx, existing.id);
      return (await staffById(tx, existing.id))!;
    }
    return insertStaff(tx, { email, name: input.name?.trim() ?? '', role: input.role, password_hash: hash, must_change_password: mustChange, demo: 0 });
  });
  return { staff, oneTimePassword };
}

/** What a sign-in came to. */
export type SignInOutcome = { kind: 'signed-in'; staff: StaffRow } | { kind: 'refused' } | { kind: 'locked'; until: number; staff: StaffRow; justLocked: boolean };

// Compared against when no account matches, so an unknown e-mail takes as long as a wrong password.
let decoy: Promise<string> | null = null;

/** Checks an e-mail and password, counting wrong ones and locking the account at the limit. */
export async function signIn(store: Store, email: string, password: string, cost: number): Promise<SignInOutcome> {
  const staff = await staffByEmail(store, emailKey(email));
  if (!staff || staff.disabled_at !== null) {
    await verifyPassword(password, await (decoy ??= hashPassword(newStaffPassword(), cost)));
    return { kind: 'refused' };
  }
  const t = store.now();
  if (staff.locked_until !== null && staff.locked_until > t) return { kind: 'locked', until: staff.locked_until, staff, justLocked: false };
  if (await verifyPassword(password, staff.password_hash)) {
    if (staff.failed_sign_ins > 0 || staff.locked_until !== null) await updateStaff(store, staff.id, { failed_sign_ins: 0, locked_until: null });
    return { kind: 'signed-in', staff };
  }
  const failures = await countFailedSignIn(store, staff.id);
  if (failures < LOCKOUT.failures) return { kind: 'refused' };
  const until = t + LOCKOUT.lockMs;
  await updateStaff(store, staff.id, { failed_sign_ins: 0, locked_until: until });
  return { kind: 'locked', until, staff, justLocked: true };
}

/** A member of staff sets their own password (the current one proves it is them); their other sessions end. */
export async function changeOwnPassword(store: Store, staffId: number, current: string, next: string, cost: number, sessionId: string): Promise<void> {
  const staff = await staffById(store, staffId);
  if (!staff) throw new StaffRefused('not_found', 'Сотрудник не найден');
  if (!(await verifyPassword(current, staff.password_hash))) throw new StaffRefused('wrong_password', 'Текущий пароль не подходит', [{ field: 'current', message: 'не подходит' }]);
  const why = passwordProblem(next);
  if (why) throw invalid('password', why);
  if (next === current) throw invalid('password', 'новый пароль не должен совпадать с прежним');
  const hash = await hashPassword(next, cost);
  await store.transaction(async (tx) => {
    await updateStaff(tx, staffId, { password_hash: hash, must_change_password: 0 });
    await deleteSessionsOf(tx, staffId, sessionId);
  });
}

/**
 * An admin changes a member of staff: the role, or switches them off (their sessions end at once) or on. The last
 * active admin keeps the role and stays on, so the desk is never left without one.
 */
export async function changeStaff(tx: Store, id: number, change: { role?: Role; disabled?: boolean }): Promise<StaffRow> {
  const staff = await staffById(tx, id);
  if (!staff) throw new StaffRefused('not_found', 'Сотрудник не найден');
  const losesAdmin = staff.role === 'admin' && staff.disabled_at === null && ((change.role !== undefined && change.role !== 'admin') || change.disabled === true);
  if (losesAdmin && (await activeAdmins(tx)) <= 1) throw new StaffRefused('last_admin', 'Это последний администратор: назначьте другого, прежде чем менять его');
  await updateStaff(tx, id, {
    ...(change.role !== undefined ? { role: change.role } : {}),
    ...(change.disabled !== undefined ? { disabled_at: change.disabled ? (staff.disabled_at ?? tx.now()) : null } : {}),
  });
  if (change.disabled) await deleteSessionsOf(tx, id);
  return (await staffById(tx, id))!;
}

/** A new one-time password and its hash, made before the transaction that sets it (scrypt takes a while). */
export async function oneTimePassword(cost: number): Promise<{ password: string; hash: string }> {
  const password = newStaffPassword();
  return { password, hash: await hashPassword(password, cost) };
}

/** An admin gives a member of staff a new one-time password (forgotten, or locked out); their sessions end. */
export async function resetPassword(tx: Store, id: number, hash: string): Promise<StaffRow> {
  const staff = await staffById(tx, id);
  if (!staff) throw new StaffRefused('not_found', 'Сотрудник не найден');
  await updateStaff(tx, id, { password_hash: hash, must_change_password: 1, failed_sign_ins: 0, locked_until: null });
  await deleteSessionsOf(tx, id);
  return (await staffById(tx, id))!;
}

/** The sandbox's demo accounts: one per role, at `<role>@demo.local`. */
const DEMO_NAMES: Record<Role, string> = { manager: 'Демо-менеджер', accountant: 'Демо-бухгалтер', admin: 'Демо-администратор' };

export const demoEmail = (role: Role) => `${role}@demo.local`;

export interface DemoAccount {
  role: Role;
  email: string;
  password: string;
}

/**
 * With the sandbox on: the demo accounts, made the first time with a password generated once and kept (so every
 * process and restart prints the same); an account someone removed is made again. With it off: none exists, those a
 * sandbox run left are removed.
 */
export async function demoAccounts(store: Store, sandbox: boolean, cost: number): Promise<DemoAccount[]> {
  if (!sandbox) {
    await deleteDemoStaff(store);
    return [];
  }
  const accounts: DemoAccount[] = [];
  for (const role of ROLES) {
    const email = demoEmail(role);
    const password = await settingOnce(store, `desk_demo_password_${role}`, newStaffPassword());
    if (!(await staffByEmail(store, email))) {
      const hash = await hashPassword(password, cost);
      // Processes starting together each try: one insert wins, the others find it made.
      await store.db
        .insertInto('desk_staff')
        .values({ email, name: DEMO_NAMES[role], role, password_hash: hash, must_change_password: 0, demo: 1, failed_sign_ins: 0, locked_until: null, disabled_at: null, created_at: store.now() })
        .onConflict((oc) => oc.column('email').doNothing())
        .execute();
    }
    accounts.push({ role, email, password });
  }
  return accounts;
}
