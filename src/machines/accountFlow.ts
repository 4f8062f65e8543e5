import { assertEvent, type EventObject } from 'xstate';
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

/*
 * The robot check works alike in every account flow. Each flow names its actions in its own setup (so the charts
 * and the model coverage read them per flow) but takes what they do from here:
 *   actions: { 'remember captcha': assign(verifiedCaptcha), 'forget captcha': assign({ captcha: null }) }
 *   on: { ...captchaHandlers }
 */

/** What 'remember captcha' keeps: the token of the passed check, for the next call. */
export const verifiedCaptcha = ({ event }: { event: EventObject }): Pick<CaptchaState, 'captcha'> => {
  const verified = event as CaptchaEvent;
  assertEvent(verified, 'captcha.verified');
  return { captcha: verified.token };
};

/** What 'read captcha request' keeps from a server answer: whether it asks for the check; a token is used once. */
export const captchaRequestOf = (_: unknown, params: { answer: AccountAnswer }): CaptchaState => ({
  showCaptcha: params.answer.showCaptcha,
  captcha: null,
});

/** The root handlers of the captcha widget's events, the same in every account flow. */
export const captchaHandlers = {
  'captcha.verified': { actions: 'remember captcha' },
  'captcha.expired': { actions: 'forget captcha' },
} as const;

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
