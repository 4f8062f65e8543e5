/**
 * Password restore: a new password for the account of a phone proven by a forgot-password code in this session, so
 * nobody resets another's password. The answer is the same whether or not the phone has an account (no enumeration).
 */
import type { Store } from '../store/store';
import { accountByPhone, setPassword } from './accountQueries';
import { captchaMissing } from './captcha';
import { consumeVerification } from './codeQueries';
import { openVerification } from './codes';
import { generatePassword, hashPassword } from './passwords';
import type { AccountDeps } from './registration';

export interface RestoreRequest {
  sessionId: string;
  phone: string;
  captcha: string | null | undefined;
  address: string;
}

/** Done (a new password went to the phone if it has an account), the captcha is missing, or the phone was not proven here. */
export type RestoreOutcome = 'done' | 'captcha' | 'unproven';

export async function restorePassword(store: Store, deps: AccountDeps, request: RestoreRequest): Promise<RestoreOutcome> {
  const { phone } = request;
  if (await captchaMissing(store, deps.verifyCaptcha, phone, request.captcha, request.address)) return 'captcha';
  const verification = await openVerification(store, request.sessionId, phone, 'forgot-password');
  if (!verification) return 'unproven';

  const password = generatePassword();
  const passwordHash = await hashPassword(password, deps.passwordCost);
  await store.transaction(async (tx) => {
    if (!(await consumeVerification(tx, verification.id))) return;
    const account = await accountByPhone(tx, phone);
    if (!account) return;
    await setPassword(tx, account.id, passwordHash);
    await deps.sms.send(tx, phone, `Ваш новый пароль: ${password}`);
  });
  return 'done';
}
