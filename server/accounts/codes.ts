/**
 * The SMS codes that prove a phone (for spending points, registering, restoring a password) and the caps that guard
 * them: four digits are only about 13 bits, so the caps carry the weight. A proven phone is kept as a verification of
 * the session for a while; registration and restore use theirs up.
 */
import crypto from 'node:crypto';
import { maskPhone } from '../../src/services/rules/phone';
import { billByLink } from '../billing/queries';
import type { Store } from '../store/store';
import { accountById } from './accountQueries';
import {
  activeCode,
  codeSentInSession,
  customerVerification,
  guardOf,
  insertCode,
  insertVerification,
  lateCodeOfSession,
  liveCodeOfSession,
  openVerificationOf,
  phonesOfSession,
  saveGuard,
  sendsFromAddress,
  sendsSince,
  setCodeTries,
  useCode,
  voidActiveCodes,
  voidAllCodesOfPhone,
} from './codeQueries';
import type { CodePurpose, SessionRow, VerificationRow } from './tables';
import type { TextOutbox } from './texts';

/** How codes are sent and checked. */
export const CODE_RULES = {
  lifeMs: 10 * 60_000,
  resendAfterMs: 60_000,
  sendsPerHour: 5,
  wrongTriesPerCode: 5,
  /** Wrong codes in a row after which the next check needs the robot check (one typo costs none). */
  wrongBeforeCaptcha: 2,
  wrongInARowToBlock: 20,
  blockMs: 24 * 60 * 60_000,
  /** Sends in the last hour after which the next one needs a captcha (a burst). */
  burstSends: 2,
  /** How long a proven phone stays proven in its session (points spending, registration, restore). */
  verificationLifeMs: 30 * 60_000,
  /**
   * Against SMS bombing across phones: one session may have codes sent to this many different phones an hour; a
   * further phone needs the robot check.
   */
  phonesPerSessionHour: 3,
  /** Sends asked for from one client address within addressBurstMs after which the next needs the robot check. */
  addressBurstSends: 5,
  addressBurstMs: 10 * 60_000,
  /** Sends asked for from one client address in an hour: beyond this, none until the hour has passed. */
  addressSendsPerHour: 30,
} as const;

const HOUR = 60 * 60_000;
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Codes are stored as salted SHA-256 bound to phone and purpose, so a table dump shows no codes. */
function codeHash(salt: string, phone: string, purpose: CodePurpose, code: string): string {
  return crypto.createHash('sha256').update(`${salt}|${phone}|${purpose}|${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export type SendOutcome =
  | { kind: 'sent'; showCaptcha: boolean; secondsLeft: number }
  /** The code was made but the provider did not take its text (refused, or down: then it is tried again meanwhile). */
  | { kind: 'not-sent'; showCaptcha: boolean }
  | { kind: 'captcha' }
  | { kind: 'too-early' | 'hourly-cap' | 'address-cap' | 'blocked'; secondsLeft: number };

export interface SendRequest {
  phone: string;
  purpose: CodePurpose;
  custNo: string | null;
  /** Who asks: the session and the client's address (the per-session and per-address rules count by these). */
  sessionId: string;
  address: string;
  /** A captcha response was given and verified. */
  captchaPassed: boolean;
}

/**
 * Sends a fresh code if the caps of the phone, the session and the client address allow it; the previous code of the
 * same purpose dies with it. The counters are the sms_codes rows themselves, so every server process sees them. The
 * text is written with the code and sent right after the commit: the payer learns whether the provider took it.
 */
export async function sendCode(store: Store, texts: TextOutbox, request: SendRequest): Promise<SendOutcome> {
  const decided = await decideCode(store, texts, request);
  if (decided.kind !== 'queued') return decided;
  const sent = await texts.sendQueued(decided.textId);
  return sent === 'accepted' ? { kind: 'sent', showCaptcha: decided.showCaptcha, secondsLeft: decided.secondsLeft } : { kind: 'not-sent', showCaptcha: decided.showCaptcha };
}

type Decision = Exclude<SendOutcome, { kind: 'not-sent' }> | { kind: 'queued'; textId: number; showCaptcha: boolean; secondsLeft: number };

function decideCode(store: Store, texts: TextOutbox, request: SendRequest): Promise<Decision> {
  return store.transaction(async (tx): Promise<Decision> => {
    const t = tx.now();
    const { phone } = request;
    const guard = await guardOf(tx, phone);
    if (guard.blocked_until > t) return { kind: 'blocked', secondsLeft: seconds(guard.blocked_until - t) };

    const lastHour = await sendsSince(tx, phone, t - HOUR);
    const demandCaptcha = () => saveGuard(tx, { ...guard, captcha_required: 1 });
    // The wait before a resend counts from the last text the provider took: after one it did not, the payer may ask again.
    if (lastHour.newestTaken !== null && t - lastHour.newestTaken < CODE_RULES.resendAfterMs) {
      // The payer was told their code did not go out, and a retry took it after all: asking again, they are taken to
      // its code screen (no new code, no robot check), rather than refused a code they are holding.
      const late = await lateCodeOfSession(tx, request.sessionId, phone, request.purpose, t - CODE_RULES.resendAfterMs);
      if (late !== undefined) return { kind: 'sent', showCaptcha: false, secondsLeft: seconds(late + CODE_RULES.resendAfterMs - t) };
      await demandCaptcha();
      return { kind: 'too-early', secondsLeft: seconds(lastHour.newestTaken + CODE_RULES.resendAfterMs - t) };
    }
    if (lastHour.n >= CODE_RULES.sendsPerHour) {
      await demandCaptcha();
      return { kind: 'hourly-cap', secondsLeft: seconds(lastHour.oldest! + HOUR - t) };
    }
    const fromAddress = await sendsFromAddress(tx, request.address, t - HOUR);
    if (fromAddress.n >= CODE_RULES.addressSendsPerHour) return { kind: 'address-cap', secondsLeft: seconds(fromAddress.oldest! + HOUR - t) };

    const phoneBurst = guard.captcha_required === 1 || lastHour.n >= CODE_RULES.burstSends;
    const addressBurst = (await sendsFromAddress(tx, request.address, t - CODE_RULES.addressBurstMs)).n;
    const sessionPhones = await phonesOfSession(tx, request.sessionId, t - HOUR);
    const newPhoneBeyondLimit = !sessionPhones.includes(phone) && sessionPhones.length >= CODE_RULES.phonesPerSessionHour;
    if ((phoneBurst || addressBurst >= CODE_RULES.addressBurstSends || newPhoneBeyondLimit) && !request.captchaPassed) {
      // Only the phone's own burst marks the phone: a busy session or address must not cost its owner a captcha.
      if (phoneBurst) await demandCaptcha();
      return { kind: 'captcha' };
    }

    const code = String(crypto.randomInt(0, 10_000)).padStart(4, '0');
    const salt = crypto.randomBytes(16).toString('hex');
    await voidActiveCodes(tx, phone, request.purpose);
    const codeId = await insertCode(tx, {
      phone,
      purpose: request.purpose,
      cust_no: request.custNo,
      salt,
      code_hash: codeHash(salt, phone, request.purpose, code),
      expires_at: t + CODE_RULES.lifeMs,
      session_id: request.sessionId,
      client_address: request.address,
    });
    await saveGuard(tx, { ...guard, captcha_required: 0 });
    const textId = await texts.queue(tx, {
      phone,
      kind: 'code',
      codeId,
      sessionId: request.sessionId,
      text: `Код подтверждения: ${code}. Действует 10 минут. Никому его не сообщайте.`,
      sendUntil: t + CODE_RULES.lifeMs,
    });
    const nextNeedsCaptcha = lastHour.n + 1 >= CODE_RULES.burstSends || addressBurst + 1 >= CODE_RULES.addressBurstSends;
    return { kind: 'queued', textId, showCaptcha: nextNeedsCaptcha, secondsLeft: seconds(CODE_RULES.resendAfterMs) };
  });
}

export type CheckOutcome =
  | { kind: 'ok'; verification: Pick<VerificationRow, 'phone' | 'purpose' | 'cust_no'> }
  /** `triesLeft`: wrong codes the code still takes (0: it is void, or there was none); `showCaptcha`: the next check needs it. */
  | { kind: 'wrong'; triesLeft: number; showCaptcha: boolean }
  | { kind: 'captcha' }
  | { kind: 'blocked'; secondsLeft: number };

export interface CheckRequest {
  sessionId: string;
  phone: string;
  purpose: CodePurpose;
  code: string;
  captchaPassed: boolean;
}

/**
 * Checks a code: single use, bound to phone and purpose, void after 5 wrong tries; 20 wrong in a row block the
 * phone for 24 hours; from the second wrong code in a row the next try needs the robot check. A guess with no live code
 * counts as wrong too. The answer says how many tries the code has left, so the payer knows where they stand; a dead
 * code has none left, which tells a guesser only that guessing is over.
 */
export function checkCode(store: Store, request: CheckRequest): Promise<CheckOutcome> {
  return store.transaction(async (tx): Promise<CheckOutcome> => {
    const t = tx.now();
    const { phone, purpose } = request;
    const guard = await guardOf(tx, phone);
    if (guard.blocked_until > t) return { kind: 'blocked', secondsLeft: seconds(guard.blocked_until - t) };
    if (guard.captcha_required === 1 && !request.captchaPassed) return { kind: 'captcha' };

    const code = await activeCode(tx, phone, purpose);
    if (code && sameHash(code.code_hash, codeHash(code.salt, phone, purpose, request.code)) && (await useCode(tx, code.id))) {
      await saveGuard(tx, { phone, wrong_streak: 0, blocked_until: 0, captcha_required: 0 });
      await insertVerification(tx, { session_id: request.sessionId, phone, purpose, cust_no: code.cust_no });
      return { kind: 'ok', verification: { phone, purpose, cust_no: code.cust_no } };
    }

    const tries = code ? code.wrong_tries + 1 : CODE_RULES.wrongTriesPerCode;
    if (code) await setCodeTries(tx, code.id, tries, tries >= CODE_RULES.wrongTriesPerCode ? 'void' : 'active');
    const streak = guard.wrong_streak + 1;
    if (streak >= CODE_RULES.wrongInARowToBlock) {
      await voidAllCodesOfPhone(tx, phone);
      await saveGuard(tx, { phone, wrong_streak: 0, blocked_until: t + CODE_RULES.blockMs, captcha_required: 1 });
      return { kind: 'wrong', triesLeft: 0, showCaptcha: true };
    }
    const captcha = guard.captcha_required === 1 || streak >= CODE_RULES.wrongBeforeCaptcha;
    await saveGuard(tx, { phone, wrong_streak: streak, blocked_until: guard.blocked_until, captcha_required: captcha ? 1 : 0 });
    return { kind: 'wrong', triesLeft: Math.max(0, CODE_RULES.wrongTriesPerCode - tries), showCaptcha: captcha };
  });
}

/** Where a code goes, or why it cannot: the refusal's HTTP status and the payer's words. */
export type CodeTarget = { phone: string; custNo: string | null } | { refused: { status: 400 | 404; error: string } };

/**
 * The phone a code goes to (and is checked against), from what the page asked. The forgot-password and registration
 * codes go to the phone the payer typed. A points code goes only to the bill customer's phone (or the signed-in
 * account's when the bill has none), which the server takes from the bill, named by its link id: the page holds that
 * phone masked, and whatever phone it names is ignored, so nobody holding the link can confirm the customer's points
 * from a phone of their own.
 */
export async function codeTarget(
  store: Store,
  session: SessionRow,
  asked: { purpose: CodePurpose; phone?: string | null; objectOID?: string | null; custNo?: string | null },
): Promise<CodeTarget> {
  const refused = (status: 400 | 404, error: string): CodeTarget => ({ refused: { status, error } });
  if (asked.purpose !== 'use-points') return asked.phone ? { phone: asked.phone, custNo: null } : refused(400, 'Не указан телефон');
  if (!asked.objectOID) return refused(400, 'Не указан счет');
  const bill = await billByLink(store, asked.objectOID);
  if (!bill) return refused(404, 'Документ не найден');
  if (!bill.cust_no || !bill.points_enabled) return refused(400, 'Баллы недоступны для этого счета');
  if (asked.custNo && asked.custNo !== bill.cust_no) return refused(400, 'Номер клиента не совпадает со счетом');
  const account = !bill.client_phone && session.account_id ? await accountById(store, session.account_id) : undefined;
  const phone = bill.client_phone ?? account?.phone;
  return phone ? { phone, custNo: bill.cust_no } : refused(400, 'Код можно отправить только на телефон клиента');
}

/** A phone this session proved for a purpose within the verification life, not yet used up. */
export function openVerification(store: Store, sessionId: string, phone: string, purpose: CodePurpose) {
  return openVerificationOf(store, sessionId, phone, purpose, store.now() - CODE_RULES.verificationLifeMs);
}

/**
 * Whether this session had a forgot-password code sent to this phone lately: the payer entered the phone in this
 * flow, which a free call then may confirm (a call signs in only a session that asked for that phone).
 */
export function phoneEnteredForRestore(store: Store, sessionId: string, phone: string): Promise<boolean> {
  return codeSentInSession(store, sessionId, phone, 'forgot-password', store.now() - CODE_RULES.verificationLifeMs);
}

/** Whether this session proved, by a use-points code, the phone of the customer who owns these points. */
export async function pointsConfirmed(store: Store, sessionId: string, custNo: string): Promise<boolean> {
  return (await customerVerification(store, sessionId, custNo, store.now() - CODE_RULES.verificationLifeMs)) !== undefined;
}

/**
 * The code this session had sent and may still enter, for a reload on the code screen to resume it: what it is for,
 * the phone masked (as the page masks it, so the page can tell whether its draft is this code), and the seconds until
 * it may be sent again (0: at once). Only the session's own code, and a points code only for the bill whose customer
 * it confirms; none for a session-less request.
 */
export async function sentCodeOf(store: Store, sessionId: string | undefined, bill: { cust_no: string | null }) {
  const code = sessionId ? await liveCodeOfSession(store, sessionId) : undefined;
  if (!code || (code.purpose === 'use-points' && code.cust_no !== bill.cust_no)) return null;
  const resendAt = code.created_at + CODE_RULES.resendAfterMs;
  return { purpose: code.purpose, phone: maskPhone(code.phone), secondsLeft: Math.max(0, Math.ceil((resendAt - store.now()) / 1000)) };
}
