import { assertEvent, type EventObject } from 'xstate';
import type { AccountAnswer } from '../services/accountAnswer';
import type { CodePurpose, RegisterForm } from '../services/types';

/**
 * What the account flows (signIn, codeFlow) share: the robot check's events, state and policy, and the inputs of
 * their I/O actors. The actors answer an AccountAnswer, so a refusal that asks for the captcha is an answer the
 * flow reads, while a network failure is the actor's error.
 */
export type { AccountAnswer };

/** The captcha widget (or its dev stand-in) reports a token, or that the token it gave has expired. */
export type CaptchaEvent = { type: 'captcha.verified'; token: string } | { type: 'captcha.expired' };

/**
 * When a screen shows the robot check: 'always' on screens that send an SMS to any phone typed in
 * (forgot-password, register), 'when asked' elsewhere: shown once the server answers show_captcha.
 */
export type CaptchaPolicy = 'always' | 'when asked';

export interface CaptchaState {
  captchaPolicy: CaptchaPolicy;
  /** The robot check is shown (the server asked for it, or the screen always has it). */
  showCaptcha: boolean;
  /** The token of a passed check, used once by the next call. */
  captcha: string | null;
}

/** A screen's robot check before its first call. */
export const captchaFor = (captchaPolicy: CaptchaPolicy): CaptchaState => ({ captchaPolicy, showCaptcha: captchaPolicy === 'always', captcha: null });

/*
 * The robot check works alike in every account flow. Each flow names its actions in its own setup (so the charts
 * and the model coverage read them per flow, and setup() keeps their types) but takes what they do from here:
 *   actions: { 'remember captcha': assign(verifiedCaptcha), 'forget captcha': assign({ captcha: null }),
 *              'read captcha request': assign(captchaRequestOf) }
 *   on: { ...captchaHandlers }
 */

/** What 'remember captcha' keeps: the token of the passed check, for the next call. */
export const verifiedCaptcha = ({ event }: { event: EventObject }): Pick<CaptchaState, 'captcha'> => {
  const verified = event as CaptchaEvent;
  assertEvent(verified, 'captcha.verified');
  return { captcha: verified.token };
};

/** After a server answer: the check shows if the screen always has it or the server asks; a token is used once. */
export const captchaRequestOf = ({ context }: { context: CaptchaState }, params: { answer: AccountAnswer }): Pick<CaptchaState, 'showCaptcha' | 'captcha'> => ({
  showCaptcha: context.captchaPolicy === 'always' || params.answer.showCaptcha,
  captcha: null,
});

/** The root handlers of the captcha widget's events, the same in every account flow. */
export const captchaHandlers = {
  'captcha.verified': { actions: 'remember captcha' },
  'captcha.expired': { actions: 'forget captcha' },
} as const;

/** Continue waits while the check is shown and not passed (the form's loading flag). */
export const isCaptchaPending = (state: Pick<CaptchaState, 'showCaptcha' | 'captcha'>) => state.showCaptcha && !state.captcha;

export interface SendCodeInput {
  /** null for a points code: it goes to the bill's own phone, which the server takes from the bill. */
  phone: string | null;
  purpose: CodePurpose;
  /** The bill's link id. */
  objectOID: string;
  custNo: string | null;
  usePoints: boolean;
  captcha: string | null;
}

/** A code is checked with what it was sent for (a points code's phone null, as then: the server finds it by the bill). */
export interface CheckCodeInput extends SendCodeInput {
  code: string;
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
