/**
 * Password restore: a new password for the account of a phone proven by a forgot-password code in this session, so
 * nobody resets another's password. The answer is the same whether or not the phone has an account (no enumeration),
 * except when the provider does not take the new password's text: then the payer, who proved the phone, hears it.
 */
import type { Store } from '../store/store';
import { accountByPhone, setPassword } from './accountQueries';
import { consumeVerification } from './codeQueries';
import { newPassword, passwordProof, passwordSent, queuePasswordText, type AccountDeps, type PasswordAsker, type PasswordWords } from './passwordTexts';

export type RestoreRequest = PasswordAsker;

/**
 * Done (a new password went to the phone if it has an account), its text did not go out (the payer may ask again), the
 * captcha is missing, or the phone was not proven here.
 */
export type RestoreOutcome = 'done' | 'not-sent' | 'captcha' | 'unproven';

const restoredWords: PasswordWords = (password) => `Ваш новый пароль: ${password}`;

export async function restorePassword(store: Store, deps: AccountDeps, request: RestoreRequest): Promise<RestoreOutcome> {
  const { phone } = request;
  const verification = await passwordProof(store, deps, request, 'forgot-password', restoredWords);
  if (typeof verification === 'string') return verification === 'sent' ? 'done' : verification;

  const { password, hash } = await newPassword(deps.passwordCost);
  const textId = await store.transaction(async (tx) => {
    if (!(await consumeVerification(tx, verification.id))) return null;
    const account = await accountByPhone(tx, phone);
    if (!account) return null;
    await setPassword(tx, account.id, hash);
    return queuePasswordText(tx, deps.texts, { phone, sessionId: request.sessionId }, restoredWords(password));
  });
  if (textId === null) return 'done';
  return (await passwordSent(deps.texts, textId)) === 'sent' ? 'done' : 'not-sent';
}
