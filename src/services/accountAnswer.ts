import { ApiError } from './http';

/**
 * What the account and code calls tell a flow, whatever the HTTP status: whether it worked, whether the server
 * now wants the robot check (show_captcha at the top or under json), and how long until a code may be resent.
 */
export interface AccountAnswer {
  success: boolean;
  showCaptcha: boolean;
  /** Seconds until another code may be sent, when the server said so (send-sms). */
  secondsLeft: number | null;
  /** Wrong codes the code still takes, when the server said so (check-code). */
  triesLeft: number | null;
  /** The HTTP status of a refusal (401: wrong phone or password; 429: too many tries); null for an answer. */
  status: number | null;
  /** The server's reason for a refusal, for the console only. */
  error: string | null;
  /** The SMS provider did not take the text (a code, a password): the payer may try again in a minute. */
  smsFailed?: true;
}

interface RawAnswer {
  success?: unknown;
  show_captcha?: unknown;
  json?: { show_captcha?: unknown } | null;
  secondsLeft?: unknown;
  triesLeft?: unknown;
  data?: unknown;
  error?: unknown;
  sms_failed?: unknown;
}

export function readAnswer(raw: unknown, status: number | null = null): AccountAnswer {
  const body = (raw && typeof raw === 'object' ? raw : {}) as RawAnswer;
  const data = body.data && typeof body.data === 'object' ? (body.data as { secondsLeft?: unknown }) : {};
  const seconds = typeof body.secondsLeft === 'number' ? body.secondsLeft : typeof data.secondsLeft === 'number' ? data.secondsLeft : null;
  return {
    success: body.success === true,
    showCaptcha: body.show_captcha === true || body.json?.show_captcha === true,
    secondsLeft: seconds,
    triesLeft: typeof body.triesLeft === 'number' ? body.triesLeft : null,
    status,
    error: typeof body.error === 'string' ? body.error : null,
    ...(body.sms_failed === true ? { smsFailed: true as const } : {}),
  };
}

/** A refusal whose body says what to do next: a 4xx, or the 503 of a text the SMS provider did not take. */
const isAnswered = (error: ApiError) =>
  error.body !== null && typeof error.body === 'object' && ((error.status >= 400 && error.status < 500) || (error.body as RawAnswer).sms_failed === true);

/**
 * Runs a call and reads its answer. The server refuses with a 4xx whose body still says what to do next
 * (show_captcha, secondsLeft), so such a refusal is an answer too, as is the 503 of an SMS not sent (sms_failed); a
 * network failure or another 5xx stays an error.
 */
export async function answerOf(call: Promise<unknown>): Promise<AccountAnswer> {
  try {
    return readAnswer(await call);
  } catch (error) {
    if (error instanceof ApiError && isAnswered(error)) return readAnswer(error.body, error.status);
    throw error;
  }
}
