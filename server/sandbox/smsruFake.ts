/**
 * The sandbox's SMS provider: a fake of SMS.ru's HTTP API (smsru.ts serves it under /sandbox/smsru/), reached by the
 * product's own adapter over HTTP. Its texts are what `/sandbox/sms` shows (the phone's side); its call checks are what
 * `/sandbox/free-call` calls. Like the provider, it tells the product of a delivery or a call by posting a callback to
 * the account's callback URL (this server's `/api/smsru/callback` unless a test points it elsewhere).
 */
import type { AppOptions } from '../config';
import type { Background } from '../platform/background';
import type { RootStore } from '../store/store';
import { faultSet } from './party';
import { fakeCheck, setFakeCheckStatus, waitingFakeChecks } from './smsruQueries';

/** Misbehaviours the fake can be told to show, for one phone or for every phone ('*'). */
export const SMSRU_FAULTS = ['send-refused', 'provider-500', 'provider-timeout', 'delivery-fails', 'callback-lost', 'single-line'] as const;
export type SmsRuFault = (typeof SMSRU_FAULTS)[number];

/** The numbers the fake's checks ask to call: a small pool, so that two checks of one phone can get different ones. */
export const FAKE_LINES = ['78005008275', '78005008276', '78005008277'] as const;

/** '78005008275' as the payer reads it: '+7 (800) 500-82-75'. */
export const prettyNumber = (digits: string) => digits.replace(/^(\d)(\d{3})(\d{3})(\d{2})(\d{2})$/, '+$1 ($2) $3-$4-$5');

/** A check waits for the call this long, as the provider's do. */
export const FAKE_CHECK_LIFE_MS = 5 * 60_000;

export interface SmsRuFake {
  setFault(fault: SmsRuFault, on: boolean, phone?: string): void;
  hasFault(fault: SmsRuFault, phone: string): boolean;
  /** Where the fake posts its callbacks (the account's setting at the provider); null: this server's own. */
  setCallbackUrl(url: string | null): void;
  /** A text's delivery or a check's status changed: posts the record to the callback URL (unless the callback is lost). */
  notify(phone: string, record: string[]): void;
  /** The number a new check of the phone asks to call: one its other waiting checks do not use, while the pool lasts. */
  lineFor(phone: string): Promise<string>;
  /** A call from `phone` to `to` (the newest waiting check's number when none is given): answers how many checks it confirmed. */
  placeCall(phone: string, to: string | null): Promise<number>;
  /** Held back past the client's time-out (the 'provider-timeout' fault): the answer comes too late for it. */
  hang(): Promise<void>;
  /** A request of one of the API's methods came (`sms/status`, …): counted, as the provider's account would bill it. */
  called(method: string): void;
  /** How many requests of the method came, since this process started (what a test of the product's calls counts). */
  callsOf(method: string): number;
}

export function createSmsRuFake(deps: { store: RootStore; options: AppOptions; background: Background }): SmsRuFake {
  const { store, options } = deps;
  const { setFault, hasFault: has } = faultSet<SmsRuFault>();
  let callbackUrl: string | null = null;
  const calls = new Map<string, number>();

  function notify(phone: string, record: string[]) {
    if (has('callback-lost', phone)) return;
    const url = callbackUrl ?? `${options.publicUrl}/api/smsru/callback`;
    const body = new URLSearchParams([['data[]', [...record, String(Math.floor(options.now() / 1000))].join('\n')]]);
    deps.background.run(`sandbox sms callback ${record[1]}`, async () => {
      const answer = await options.smsruFetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
      await answer.text();
    });
  }

  return {
    setFault,
    hasFault: has,
    setCallbackUrl(url) {
      callbackUrl = url;
    },
    notify,
    async lineFor(phone) {
      if (has('single-line', phone)) return FAKE_LINES[0];
      const busy = new Set((await waitingFakeChecks(store, phone)).map((check) => check.call_phone));
      return FAKE_LINES.find((line) => !busy.has(line)) ?? FAKE_LINES[0];
    },
    async placeCall(phone, to) {
      const waiting = await waitingFakeChecks(store, phone);
      const dialled = to ?? waiting[0]?.call_phone;
      // The provider sees a call from the phone to one of its numbers: every check of that phone and number is confirmed.
      const confirmed = await setFakeCheckStatus(
        store,
        waiting.filter((check) => check.call_phone === dialled).map((check) => check.check_id),
        401,
      );
      for (const check of confirmed) notify(phone, ['callcheck_status', check.check_id, '401']);
      return confirmed.length;
    },
    // Unref'd: a held answer never keeps a closing process (or a test worker) alive.
    hang: () => new Promise((resolve) => setTimeout(resolve, options.smsTimeoutMs + 500).unref()),
    called: (method) => void calls.set(method, (calls.get(method) ?? 0) + 1),
    callsOf: (method) => calls.get(method) ?? 0,
  };
}

/** A check's status as the fake answers it now: one still waiting past its life has expired (402). */
export async function fakeCheckStatus(store: RootStore, checkId: string): Promise<{ phone: string; status: number } | undefined> {
  const check = await fakeCheck(store, checkId);
  if (!check) return undefined;
  if (check.check_status === 400 && check.expires_at <= store.now()) {
    await setFakeCheckStatus(store, [checkId], 402);
    return { phone: check.phone, status: 402 };
  }
  return { phone: check.phone, status: check.check_status };
}
