import type { AccountAnswer } from '../services/accountAnswer';
import { messages } from '../services/messages';
import type { CheckType, RegisterForm } from '../services/types';

/**
 * What the account flows (signIn, forgotPassword, register, usePoints, codeCheck) share: the robot check's
 * events and state, and the inputs of their I/O actors. The actors answer an AccountAnswer, so a refusal that
 * asks for the captcha is an answer the flow reads, while a network failure is the actor's error.
 */
export type { AccountAnswer };

/** The captcha widget (or its dev stand-in) reports a token, or that the token it gave has expired. */
export type CaptchaEvent = { type: 'captcha.verified'; token: string } | { type: 'captcha.expired' };

export interface CaptchaState {
  /** The robot check is shown (the server asked for it, or the screen always has it). */
  showCaptcha: boolean;
  /** The token of a passed check, used once by the next call. */
  captcha: string | null;
}

/** Continue waits while the check is shown and not passed (SPEC §4 "Loading flag"). */
export const isCaptchaPending = (state: CaptchaState) => state.showCaptcha && !state.captcha;

/** Why no code came: the wait the server named (SPEC §9 wording), else a short refusal. */
export const sendRefusalText = (secondsLeft: number | null): string =>
  secondsLeft !== null && secondsLeft > 0 ? messages.code.resendIn(secondsLeft) : messages.code.sendRefused;

export interface SendCodeInput {
  phone: string;
  purpose: CheckType;
  objectOID: string;
  custNo: string | null;
  usePoints: boolean;
  captcha: string | null;
}

export interface CheckCodeInput {
  code: string;
  phone: string;
  purpose: CheckType;
  custNo: string | null;
  usePoints: boolean;
  captcha: string | null;
}

export interface LoginInput {
  phone: string;
  password: string;
  captcha: string | null;
}

export interface RestorePasswordInput {
  phone: string;
  captcha: string | null;
}

export interface RegisterAccountInput {
  form: RegisterForm;
  captcha: string | null;
}
