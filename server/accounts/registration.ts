/**
 * Registration: a loyalty account for a phone proven by a register code in this session. The password is generated
 * here and its text written in the same transaction that creates the account, so there is never an account whose
 * password nobody was to be told, nor a password for an account that does not exist; the text goes out right after.
 */
import crypto from 'node:crypto';
import type { Store } from '../store/store';
import { accountByPhone, insertAccount } from './accountQueries';
import { captchaMissing } from './captcha';
import { consumeVerification } from './codeQueries';
import { openVerification } from './codes';
import { newPassword, passwordAgain, passwordSent, queuePasswordText, type AccountDeps, type PasswordWords } from './passwordTexts';

export type { AccountDeps };

export interface RegistrationRequest {
  sessionId: string;
  phone: string;
  surname: string;
  name: string;
  patronymic: string;
  /** The captcha response given, if any, and the client's address (hCaptcha checks them together). */
  captcha: string | null | undefined;
  address: string;
}

/**
 * Registered (the password's text went out), registered but its text did not go out (the payer may ask again), the
 * captcha is missing, the phone was not proven here, or it has an account.
 */
export type RegistrationOutcome = 'registered' | 'not-sent' | 'captcha' | 'unproven' | 'taken';

const registeredWords: PasswordWords = (password) => `Вы зарегистрированы. Ваш пароль: ${password}`;

export async function register(store: Store, deps: AccountDeps, request: RegistrationRequest): Promise<RegistrationOutcome> {
  const { phone } = request;
  if (await captchaMissing(store, deps.verifyCaptcha, phone, request.captcha, request.address)) return 'captcha';
  const verification = await openVerification(store, request.sessionId, phone, 'register');
  if (!verification) {
    // Used up by this session's registration whose password text did not go out: Continue sends it again.
    const again = await passwordAgain(store, deps, request.sessionId, phone, registeredWords);
    return again === 'none' ? 'unproven' : again === 'sent' ? 'registered' : 'not-sent';
  }
  if (await accountByPhone(store, phone)) return 'taken';

  const { password, hash } = await newPassword(deps.passwordCost);
  const textId = await store.transaction(async (tx) => {
    // Checked again inside the transaction: two registrations may have raced through the hashing above.
    if ((await accountByPhone(tx, phone)) || !(await consumeVerification(tx, verification.id))) return null;
    await insertAccount(tx, {
      oid: `user-${crypto.randomUUID()}`,
      phone,
      surname: request.surname.trim(),
      name: request.name.trim(),
      patronymic: request.patronymic.trim(),
      email: null,
      picture: null,
      password_hash: hash,
    });
    return queuePasswordText(tx, deps.texts, { phone, sessionId: request.sessionId }, registeredWords(password));
  });
  if (textId === null) return 'taken';
  return (await passwordSent(deps.texts, textId)) === 'sent' ? 'registered' : 'not-sent';
}
