/**
 * Registration: a loyalty account for a phone proven by a register code in this session. The password is generated
 * here and its text written in the same transaction that creates the account, so there is never an account whose
 * password nobody was to be told, nor a password for an account that does not exist; the text goes out right after.
 */
import crypto from 'node:crypto';
import type { Store } from '../store/store';
import { accountByPhone, insertAccount } from './accountQueries';
import { consumeVerification } from './codeQueries';
import { newPassword, passwordProof, passwordSent, queuePasswordText, type AccountDeps, type PasswordAsker, type PasswordWords } from './passwordTexts';

export type { AccountDeps };

export interface RegistrationRequest extends PasswordAsker {
  surname: string;
  name: string;
  patronymic: string;
}

/**
 * Registered (the password's text went out), registered but its text did not go out (the payer may ask again), the
 * captcha is missing, the phone was not proven here, or it has an account.
 */
export type RegistrationOutcome = 'registered' | 'not-sent' | 'captcha' | 'unproven' | 'taken';

const registeredWords: PasswordWords = (password) => `Вы зарегистрированы. Ваш пароль: ${password}`;

export async function register(store: Store, deps: AccountDeps, request: RegistrationRequest): Promise<RegistrationOutcome> {
  const { phone } = request;
  const verification = await passwordProof(store, deps, request, 'register', registeredWords);
  if (typeof verification === 'string') return verification === 'sent' ? 'registered' : verification;
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
