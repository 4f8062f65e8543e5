/** The staff and their sessions: the desk's queries. */
import { changedRows, first } from '../store/database';
import { prepared } from '../store/prepared';
import type { Store } from '../store/store';
import type { Role } from '../../src/desk/services/rules/permissions';
import type { DeskSessionRow, StaffRow } from './tables';

export const staffByEmail = (store: Store, email: string): Promise<StaffRow | undefined> => store.db.selectFrom('desk_staff').selectAll().where('email', '=', email).executeTakeFirst();

export const staffById = (store: Store, id: number): Promise<StaffRow | undefined> => store.db.selectFrom('desk_staff').selectAll().where('id', '=', id).executeTakeFirst();

/** Every member of staff, by e-mail. */
export const allStaff = (store: Store): Promise<StaffRow[]> => store.db.selectFrom('desk_staff').selectAll().orderBy('email').execute();

export const insertStaff = (store: Store, staff: Pick<StaffRow, 'email' | 'name' | 'role' | 'password_hash' | 'must_change_password' | 'demo'>): Promise<StaffRow> =>
  store.db
    .insertInto('desk_staff')
    .values({ ...staff, failed_sign_ins: 0, locked_until: null, disabled_at: null, created_at: store.now() })
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateStaff = async (store: Store, id: number, change: Partial<Pick<StaffRow, 'name' | 'role' | 'password_hash' | 'must_change_password' | 'disabled_at' | 'failed_sign_ins' | 'locked_until'>>): Promise<boolean> =>
  changedRows(await store.db.updateTable('desk_staff').set(change).where('id', '=', id).executeTakeFirstOrThrow()) === 1;

/** One more wrong password; answers how many in a row now. */
export async function countFailedSignIn(store: Store, id: number): Promise<number> {
  const row = await store.db
    .updateTable('desk_staff')
    .set((eb) => ({ failed_sign_ins: eb('failed_sign_ins', '+', 1) }))
    .where('id', '=', id)
    .returning('failed_sign_ins')
    .executeTakeFirst();
  return row?.failed_sign_ins ?? 0;
}

/** How many active admins there are (the last one may not lose the role or be switched off). */
export async function activeAdmins(store: Store): Promise<number> {
  const row = await store.db
    .selectFrom('desk_staff')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'admin' satisfies Role)
    .where('disabled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const deleteDemoStaff = async (store: Store): Promise<number> => changedRows(await store.db.deleteFrom('desk_staff').where('demo', '=', 1).executeTakeFirstOrThrow());

/** A session with its member of staff (none before sign-in), in one read: every desk request makes it. */
const sessionWithStaffQuery = prepared(
  (db, a: { id: string }) =>
    db
      .selectFrom('desk_sessions')
      .leftJoin('desk_staff', 'desk_staff.id', 'desk_sessions.staff_id')
      .select([
        'desk_sessions.id',
        'desk_sessions.staff_id',
        'desk_sessions.csrf_token',
        'desk_sessions.created_at',
        'desk_sessions.seen_at',
        'desk_staff.email',
        'desk_staff.name',
        'desk_staff.role',
        'desk_staff.must_change_password',
        'desk_staff.disabled_at',
      ])
      .where('desk_sessions.id', '=', a.id),
  { name: 'deskSessionWithStaff' },
);

export type SessionWithStaff = DeskSessionRow & Partial<Pick<StaffRow, 'email' | 'name' | 'role' | 'must_change_password' | 'disabled_at'>>;

export const sessionWithStaff = async (store: Store, id: string): Promise<SessionWithStaff | undefined> => first(await sessionWithStaffQuery(store, { id })) as SessionWithStaff | undefined;

export async function insertDeskSession(store: Store, id: string, staffId: number | null, csrfToken: string): Promise<void> {
  const t = store.now();
  await store.db.insertInto('desk_sessions').values({ id, staff_id: staffId, csrf_token: csrfToken, created_at: t, seen_at: t }).execute();
}

export async function touchDeskSession(store: Store, id: string): Promise<void> {
  await store.db.updateTable('desk_sessions').set({ seen_at: store.now() }).where('id', '=', id).execute();
}

export async function deleteDeskSession(store: Store, id: string): Promise<void> {
  await store.db.deleteFrom('desk_sessions').where('id', '=', id).execute();
}

/** Ends every session of a member of staff (switched off, password changed elsewhere). */
export async function deleteSessionsOf(store: Store, staffId: number, except?: string): Promise<void> {
  let query = store.db.deleteFrom('desk_sessions').where('staff_id', '=', staffId);
  if (except) query = query.where('id', '!=', except);
  await query.execute();
}

/** Deletes every session idle since `idleBefore` or begun before `bornBefore`; answers how many. */
export const sweepDeskSessions = async (store: Store, idleBefore: number, bornBefore: number): Promise<number> =>
  changedRows(
    await store.db
      .deleteFrom('desk_sessions')
      .where((eb) => eb.or([eb('seen_at', '<=', idleBefore), eb('created_at', '<=', bornBefore)]))
      .executeTakeFirstOrThrow(),
  );
