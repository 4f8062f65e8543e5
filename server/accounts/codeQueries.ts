/** The SMS code queries: the codes, the per-phone guards and the phones proven in a session. */
import { changedRows } from '../store/database';
import type { Store } from '../store/store';
import type { CodePurpose, PhoneGuardRow, SmsCodeRow, VerificationRow } from './tables';

export async function insertCode(
  store: Store,
  code: Pick<SmsCodeRow, 'phone' | 'purpose' | 'cust_no' | 'salt' | 'code_hash' | 'expires_at' | 'session_id' | 'client_address'>,
): Promise<number> {
  const row = await store.db.insertInto('sms_codes').values({ ...code, wrong_tries: 0, state: 'active', created_at: store.now() }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Codes that may still be entered (active, not expired), the newest first. */
const liveCodes = (store: Store) =>
  store.db.selectFrom('sms_codes').selectAll().where('state', '=', 'active').where('expires_at', '>', store.now()).orderBy('id', 'desc').limit(1);

/** The newest code of a phone and purpose that may still be entered. */
export const activeCode = (store: Store, phone: string, purpose: CodePurpose): Promise<SmsCodeRow | undefined> =>
  liveCodes(store).where('phone', '=', phone).where('purpose', '=', purpose).executeTakeFirst();

export async function voidActiveCodes(store: Store, phone: string, purpose: CodePurpose): Promise<void> {
  await store.db.updateTable('sms_codes').set({ state: 'void' }).where('phone', '=', phone).where('purpose', '=', purpose).where('state', '=', 'active').execute();
}

export async function voidAllCodesOfPhone(store: Store, phone: string): Promise<void> {
  await store.db.updateTable('sms_codes').set({ state: 'void' }).where('phone', '=', phone).where('state', '=', 'active').execute();
}

/** A code whose text the provider refused: nobody can enter it, and a reload must not resume it. */
export async function voidCode(store: Store, id: number): Promise<void> {
  await store.db.updateTable('sms_codes').set({ state: 'void' }).where('id', '=', id).where('state', '=', 'active').execute();
}

export async function setCodeTries(store: Store, id: number, wrongTries: number, state: 'active' | 'void'): Promise<void> {
  await store.db.updateTable('sms_codes').set({ wrong_tries: wrongTries, state }).where('id', '=', id).execute();
}

/** Marks a code used; answers false when it was used meanwhile (single use). */
export const useCode = async (store: Store, id: number): Promise<boolean> =>
  changedRows(await store.db.updateTable('sms_codes').set({ state: 'used' }).where('id', '=', id).where('state', '=', 'active').executeTakeFirstOrThrow()) === 1;

const nullable = (value: number | null) => (value === null ? null : Number(value));

/**
 * Codes sent to a phone after a moment: how many, the oldest send time, and the newest of those whose text the
 * provider took or is being given for the first time (a code whose text it did not take was never the payer's to wait
 * for; one on its first try is, or a second request at that moment would void it while its text goes out).
 */
export async function sendsSince(store: Store, phone: string, since: number) {
  const row = await store.db
    .selectFrom('sms_codes')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.min('created_at').as('oldest'),
      eb.fn
        .max(
          eb
            .case()
            .when(
              eb.exists(
                eb
                  .selectFrom('sms_messages')
                  .select('sms_messages.id')
                  .whereRef('sms_messages.code_id', '=', 'sms_codes.id')
                  .where((m) => m.or([m('sms_messages.state', '=', 'accepted'), m.and([m('sms_messages.state', '=', 'pending'), m('sms_messages.attempts', '=', 0)])])),
              ),
            )
            .then(eb.ref('sms_codes.created_at'))
            .end(),
        )
        .as('newestTaken'),
    ])
    .where('phone', '=', phone)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { n: Number(row.n), oldest: nullable(row.oldest), newestTaken: nullable(row.newestTaken) };
}

/**
 * When this session's live code of a phone and purpose was made, after a moment, if its text went out only on a retry
 * (the asker's own first try failed, so the payer was told it had not gone).
 */
export async function lateCodeOfSession(store: Store, sessionId: string, phone: string, purpose: CodePurpose, since: number): Promise<number | undefined> {
  const row = await store.db
    .selectFrom('sms_codes')
    .innerJoin('sms_messages', 'sms_messages.code_id', 'sms_codes.id')
    .select('sms_codes.created_at')
    .where('sms_codes.session_id', '=', sessionId)
    .where('sms_codes.phone', '=', phone)
    .where('sms_codes.purpose', '=', purpose)
    .where('sms_codes.state', '=', 'active')
    .where('sms_codes.expires_at', '>', store.now())
    .where('sms_codes.created_at', '>', since)
    .where('sms_messages.state', '=', 'accepted')
    .where('sms_messages.attempts', '>', 1)
    .orderBy('sms_codes.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.created_at) : undefined;
}

/** Codes sent at the request of a client address after a moment: how many, and the oldest send time. */
export async function sendsFromAddress(store: Store, address: string, since: number) {
  const row = await store.db
    .selectFrom('sms_codes')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('client_address', '=', address)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { n: Number(row.n), oldest: nullable(row.oldest) };
}

/** The phones a session had codes sent to after a moment. */
export const phonesOfSession = async (store: Store, sessionId: string, since: number): Promise<string[]> =>
  (await store.db.selectFrom('sms_codes').select('phone').distinct().where('session_id', '=', sessionId).where('created_at', '>', since).execute()).map(
    (row) => row.phone,
  );

/** The newest code this session had sent that may still be entered (a reload on the code screen resumes it). */
export const liveCodeOfSession = (store: Store, sessionId: string): Promise<SmsCodeRow | undefined> =>
  liveCodes(store).where('session_id', '=', sessionId).executeTakeFirst();

/** Whether this session had a code of this purpose sent to this phone after a moment. */
export const codeSentInSession = async (store: Store, sessionId: string, phone: string, purpose: CodePurpose, since: number): Promise<boolean> =>
  (await store.db
    .selectFrom('sms_codes')
    .select('id')
    .where('session_id', '=', sessionId)
    .where('phone', '=', phone)
    .where('purpose', '=', purpose)
    .where('created_at', '>', since)
    .limit(1)
    .executeTakeFirst()) !== undefined;

/** A phone's guard (all clear when it has none yet). */
export const guardOf = async (store: Store, phone: string): Promise<PhoneGuardRow> =>
  (await store.db.selectFrom('phone_guards').selectAll().where('phone', '=', phone).executeTakeFirst()) ?? {
    phone,
    wrong_streak: 0,
    blocked_until: 0,
    captcha_required: 0,
    updated_at: 0,
  };

export async function saveGuard(store: Store, guard: Omit<PhoneGuardRow, 'updated_at'>): Promise<void> {
  await store.db
    .insertInto('phone_guards')
    .values({ ...guard, updated_at: store.now() })
    .onConflict((oc) =>
      oc.column('phone').doUpdateSet((eb) => ({
        wrong_streak: eb.ref('excluded.wrong_streak'),
        blocked_until: eb.ref('excluded.blocked_until'),
        captcha_required: eb.ref('excluded.captcha_required'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/** Demands (or stops demanding) the captcha for a phone, leaving the rest of its guard as it is, in one statement. */
export async function setCaptchaRequired(store: Store, phone: string, required: boolean): Promise<void> {
  const flag = required ? 1 : 0;
  await store.db
    .insertInto('phone_guards')
    .values({ phone, wrong_streak: 0, blocked_until: 0, captcha_required: flag, updated_at: store.now() })
    .onConflict((oc) => oc.column('phone').doUpdateSet((eb) => ({ captcha_required: eb.ref('excluded.captcha_required'), updated_at: eb.ref('excluded.updated_at') })))
    .execute();
}

export async function insertVerification(store: Store, v: Pick<VerificationRow, 'session_id' | 'phone' | 'purpose' | 'cust_no'>): Promise<void> {
  await store.db.insertInto('phone_verifications').values({ ...v, verified_at: store.now() }).execute();
}

/** The newest phone this session proved after a moment. */
const newestVerification = (store: Store, sessionId: string, since: number) =>
  store.db.selectFrom('phone_verifications').selectAll().where('session_id', '=', sessionId).where('verified_at', '>', since).orderBy('id', 'desc').limit(1);

/** The newest phone this session proved for a purpose after a moment, not yet used up. */
export const openVerificationOf = (store: Store, sessionId: string, phone: string, purpose: CodePurpose, since: number): Promise<VerificationRow | undefined> =>
  newestVerification(store, sessionId, since).where('phone', '=', phone).where('purpose', '=', purpose).where('consumed_at', 'is', null).executeTakeFirst();

/** The newest use-points proof of this session for a customer after a moment. */
export const customerVerification = (store: Store, sessionId: string, custNo: string, since: number): Promise<VerificationRow | undefined> =>
  newestVerification(store, sessionId, since).where('purpose', '=', 'use-points').where('cust_no', '=', custNo).executeTakeFirst();

/** Uses a proven phone up (registration, restore); answers false when it was used meanwhile. */
export const consumeVerification = async (store: Store, id: number): Promise<boolean> =>
  changedRows(
    await store.db.updateTable('phone_verifications').set({ consumed_at: store.now() }).where('id', '=', id).where('consumed_at', 'is', null).executeTakeFirstOrThrow(),
  ) === 1;
