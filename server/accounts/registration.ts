/**
 * Registration: a loyalty account for a phone proven by a register code in this session. The password is generated
 * here and sent by SMS in the same transaction that creates the account, so there is never an account whose password
 * nobody was told, nor a password for an account that does not exist.
 */
import crypto from 'node:crypto';
import type { Store } from '../store/store';
import { accountByPhone, insertAccount } from './accountQueries';
import { captchaMissing, type CaptchaVerifier } from './captcha';
import { consumeVerification } from './codeQueries';
import { openVerification } from './codes';
import { generatePassword, hashPassword } from './passwords';
import type { SmsGateway } from './sms';

/** What the account calls need besides the store: the SMS line, the captcha check and the cost of a password hash. */
export interface AccountDeps {
  sms: SmsGateway;
  verifyCaptcha: CaptchaVerifier;
  passwordCost: number;
}

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

/** Registered (the password is on its way), the captcha is missing, the phone was not proven here, or it has an account. */
export type RegistrationOutcome = 'registered' | 'captcha' | 'unproven' | 'taken';

export async function register(store: Store, deps: AccountDeps, request: RegistrationRequest): Promise<RegistrationOutcome> {
  const { phone } = request;
  if (await captchaMissing(store, deps.verifyCaptcha, phone, request.captcha, request.address)) return 'captcha';
  const verification = await openVerification(store, request.sessionId, phone, 'register');
  if (!verification) return 'unproven';
  if (await accountByPhone(store, phone)) return 'taken';

  const password = generatePassword();
  const passwordHash = await hashPassword(password, deps.passwordCost);
  const created = await store.transaction(async (tx) => {
    // Checked again inside the transaction: two registrations may have raced through the hashing above.
    if ((await accountByPhone(tx, phone)) || !(await consumeVerification(tx, verification.id))) return false;
    await insertAccount(tx, {
      oid: `user-${crypto.randomUUID()}`,
      phone,
      surname: request.surname.trim(),
      name: request.name.trim(),
      patronymic: request.patronymic.trim(),
      email: null,
      picture: null,
      password_hash: passwordHash,
    });
    await deps.sms.send(tx, phone, `Вы зарегистрированы. Ваш пароль: ${password}`);
    return true;
  });
  return created ? 'registered' : 'taken';
}
