/**
 * An attacker who solves every captcha and asks for a new code whenever the rules allow, sending wrong codes for one
 * phone: the test of the SMS code caps (test/server/accounts/bruteforce.test.ts) and the bench's figure run this one.
 */
import { DEV_CAPTCHA_TOKEN } from '../../server/accounts/captcha';
import { CODE_RULES } from '../../server/accounts/codes';
import { SESSION_LIFE } from '../../server/accounts/sessions';

/** What the attacker needs of the server it attacks: its page's calls, the phone's texts, and time passing. */
export interface CodeGuesser {
  /** A POST of the attacker's page (its session cookie and CSRF token). */
  post(url: string, body: Record<string, unknown>): Promise<{ statusCode: number; json(): unknown }>;
  /** The code the phone got last. */
  lastCode(): Promise<string | null>;
  /** The attacker waits this long (on a fake clock: at once). */
  wait(ms: number): void;
  /** Opens the page again: a wait of 30 idle minutes or more ended the session. */
  reopen(): Promise<void>;
  /** Told of every refusal that is neither a code sent nor a wrong code looked at (the caps' own). */
  refused?(statusCode: number): void;
}

export interface Guessed {
  accepted: number;
  /** Wrong codes the server looked at (and counted against the phone). */
  evaluated: number;
  codesSent: number;
  /** Guesses refused without a look, the phone being blocked. */
  blocked: number;
}

export async function guessCodes(attacker: CodeGuesser, phone: string, guesses: number): Promise<Guessed> {
  const guessed: Guessed = { accepted: 0, evaluated: 0, codesSent: 0, blocked: 0 };
  let liveCode: string | null = null;
  let triesOnCode = 0;
  for (let guess = 0; guess < guesses; guess++) {
    if (!liveCode || triesOnCode >= CODE_RULES.wrongTriesPerCode) {
      const sent = await attacker.post('/api/send-sms/', { phone, objectOID: 'demo-anon', captchaVerified: true, custNo: null, usePoints: false, captcha: DEV_CAPTCHA_TOKEN, purpose: 'register' });
      if (sent.statusCode === 200) {
        guessed.codesSent++;
        liveCode = await attacker.lastCode();
        triesOnCode = 0;
      } else {
        attacker.refused?.(sent.statusCode);
        // Wait exactly as long as the server says, then go on guessing against whatever is left.
        const wait = ((sent.json() as { secondsLeft?: number }).secondsLeft ?? 60) * 1000;
        attacker.wait(wait);
        if (wait >= SESSION_LIFE.idleMs) await attacker.reopen();
      }
    }
    // A wrong code by construction: anything but the code the server sent.
    const wrong = String((Number(liveCode ?? '0') + 1 + (guess % 9_999)) % 10_000).padStart(4, '0');
    const answer = await attacker.post('/api/check-code/', { code: wrong, phone, custNo: null, usePoints: false, purpose: 'register', captcha: DEV_CAPTCHA_TOKEN });
    if (answer.statusCode === 200) guessed.accepted++;
    else if (answer.statusCode === 400) {
      guessed.evaluated++;
      triesOnCode++;
    } else {
      attacker.refused?.(answer.statusCode);
      guessed.blocked++;
      liveCode = null;
    }
  }
  return guessed;
}
