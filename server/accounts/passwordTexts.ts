/**
 * The texts that carry a new password (registration, restore), and what happens when the payer asks again because one
 * did not go out: the code was right, the account has its new password, but the provider did not take the text. The
 * payer's Continue tries that very text again while it is pending (the same password); once it was refused or given
 * up, a new password replaces the one nobody received.
 */
import type { Store } from '../store/store';
import { accountByPhone, setPassword } from './accountQueries';
import { captchaMissing, type CaptchaVerifier } from './captcha';
import { CODE_RULES, openVerification } from './codes';
import { generatePassword, hashPassword } from './passwords';
import type { VerificationRow } from './tables';
import { passwordTextOfSession } from './textQueries';
import type { TextOutbox } from './texts';

/** What the account calls need besides the store: the SMS outbox, the captcha check and the cost of a password hash. */
export interface AccountDeps {
  texts: TextOutbox;
  verifyCaptcha: CaptchaVerifier;
  passwordCost: number;
}

/** A password's text is sent within this time or not at all: the payer has long moved on (and may restore again). */
export const PASSWORD_TEXT_LIFE_MS = 30 * 60_000;

/** The password's words, per flow. */
export type PasswordWords = (password: string) => string;

/** A new password and its hash (scrypt is slow: made before the transaction that stores it). */
export async function newPassword(cost: number): Promise<{ password: string; hash: string }> {
  const password = generatePassword();
  return { password, hash: await hashPassword(password, cost) };
}

/** Queues a password's text in the caller's transaction; answers its id. */
export function queuePasswordText(tx: Store, texts: TextOutbox, to: { phone: string; sessionId: string }, words: string): Promise<number> {
  return texts.queue(tx, { phone: to.phone, kind: 'password', sessionId: to.sessionId, text: words, sendUntil: tx.now() + PASSWORD_TEXT_LIFE_MS });
}

/** The asker's first attempt at a password text it queued: whether the provider took it. */
export async function passwordSent(texts: TextOutbox, textId: number): Promise<'sent' | 'not-sent'> {
  return (await texts.sendQueued(textId)) === 'accepted' ? 'sent' : 'not-sent';
}

/**
 * The payer asks again for the password this session was to get by text: 'none' when there is nothing to send again
 * (no such text lately, or it went out), else whether it went now.
 */
export async function passwordAgain(store: Store, deps: AccountDeps, sessionId: string, phone: string, words: PasswordWords): Promise<'sent' | 'not-sent' | 'none'> {
  const text = await passwordTextOfSession(store, sessionId, phone, store.now() - CODE_RULES.verificationLifeMs);
  if (!text || text.state === 'accepted') return 'none';
  if (text.state === 'pending') {
    const outcome = await deps.texts.sendNow(text.id);
    if (outcome === 'accepted') return 'sent';
    // Still pending (the provider is down, or another sender has it): the payer hears it and may ask once more.
    if (outcome === 'retrying' || outcome === 'busy') return 'not-sent';
  }
  // Refused, given up or out of time: nobody has that password; a new one replaces it.
  const { password, hash } = await newPassword(deps.passwordCost);
  const textId = await store.transaction(async (tx) => {
    const account = await accountByPhone(tx, phone);
    if (!account) return null;
    await setPassword(tx, account.id, hash);
    return queuePasswordText(tx, deps.texts, { phone, sessionId }, words(password));
  });
  return textId === null ? 'none' : passwordSent(deps.texts, textId);
}

/** Who asks for a password flow (registration, restore): the session, the phone, and the captcha given from an address. */
export interface PasswordAsker {
  sessionId: string;
  phone: string;
  /** The captcha response given, if any, and the client's address (hCaptcha checks them together). */
  captcha: string | null | undefined;
  address: string;
}

/**
 * The start both password flows share: the captcha where the phone's guard demands one, then this session's proof of
 * the phone by the flow's code (answered, for the flow to use up). Without a proof the flow may have run here already
 * and its password text not gone out: that is sent again ('sent', 'not-sent'); with nothing to send, 'unproven'.
 */
export async function passwordProof(
  store: Store,
  deps: AccountDeps,
  asker: PasswordAsker,
  purpose: 'register' | 'forgot-password',
  words: PasswordWords,
): Promise<VerificationRow | 'captcha' | 'unproven' | 'sent' | 'not-sent'> {
  if (await captchaMissing(store, deps.verifyCaptcha, asker.phone, asker.captcha, asker.address)) return 'captcha';
  const verification = await openVerification(store, asker.sessionId, asker.phone, purpose);
  if (verification) return verification;
  // Used up by this session's flow whose password text did not go out: Continue sends it again.
  const again = await passwordAgain(store, deps, asker.sessionId, asker.phone, words);
  return again === 'none' ? 'unproven' : again;
}
