/**
 * The free call: the payer calls a number from their own phone, and the call proves the phone, signing its account in.
 * Choosing it starts a call check at the provider for the phone (`callcheck/add`), which answers the number to call;
 * the page shows it and polls, and each poll reads the check (`callcheck/status`: at most one read in flight per
 * check, in this process and across processes). The provider's callback is only a hint to read it at once: nobody is
 * signed in but on the provider's own `401` for that check, read by us.
 *
 * A call signs in exactly one session, the one that started the check: a session may start a check only for a phone
 * it entered in this flow (a restore code was sent to it), every session has a check of its own, and a call confirms
 * the check whose number was dialled. Where two sessions wait for the same phone and the same number, the call cannot
 * say which one it was for: it signs in neither, and both are told to start again.
 */
import type { CallCheckProvider, CheckState } from '../smsProvider/port';
import type { Store } from '../store/store';
import { phoneEnteredForRestore } from './codes';
import {
  checkByCheckId,
  checkById,
  checkOfSession,
  claimCheckRead,
  claimCheckReadIfStale,
  finishCheckRead,
  insertCheck,
  moveChecks,
  replaceChecksOfSession,
  rivalChecks,
} from './freeCallQueries';
import type { FreeCallCheckRow } from './tables';

/** A check waits this long for the call (the page polls for 60 s; a little slack for the provider). */
export const FREE_CALL_WINDOW_MS = 2 * 60_000;

/**
 * The provider's callback (unauthenticated: anyone may post it) reads a check only if nobody read it in this time: the
 * page's own polls read it every 5 s anyway, so a hint can only bring the news forward, never make us ask more often.
 */
export const HINTED_READ_EVERY_MS = 10_000;

/** The number the payer calls: digits for the `tel:` link, and as they read it. */
export interface FreeCallNumber {
  callPhone: string;
  callPhonePretty: string;
}

/** Where a session's free call stands: none started, waiting, confirmed (sign in), over, or a call nobody can claim. */
export type FreeCallStatus = 'none' | 'waiting' | 'confirmed' | 'ended' | 'conflict';

/** What can become of a call check, where it is decided (a counter of call checks by outcome belongs here). */
export type CallCheckOutcome = 'started' | 'start-failed' | 'confirmed' | 'conflict' | 'ended' | 'read-failed';

export interface FreeCalls {
  /** Starts this session's check for a phone it entered; null when it never entered that phone. Throws the provider's error. */
  start(sessionId: string, phone: string): Promise<FreeCallNumber | null>;
  /** The session's check of the phone, read at the provider when it still waits. */
  status(sessionId: string, phone: string): Promise<{ status: FreeCallStatus; check: FreeCallCheckRow | null }>;
  /** The session's confirmed check has signed it in. */
  signedIn(check: FreeCallCheckRow): Promise<void>;
  /** The provider's callback named a check (a hint): read it now, unless it is being read or was read lately. */
  hint(checkId: string): Promise<void>;
}

export interface FreeCallOptions {
  store: Store;
  provider: CallCheckProvider;
  /** The provider's time-out per call: a read's hold covers it. */
  timeoutMs: number;
  log: (message: string, error?: unknown) => void;
  onOutcome?: (outcome: CallCheckOutcome) => void;
}

const statusOf: Record<FreeCallCheckRow['state'], FreeCallStatus> = {
  waiting: 'waiting',
  confirmed: 'confirmed',
  'signed-in': 'confirmed',
  ended: 'ended',
  conflict: 'conflict',
  replaced: 'none',
};

export function freeCalls(options: FreeCallOptions): FreeCalls {
  const { store, provider } = options;
  // The read in flight of each check in this process: a poll arriving meanwhile shares it.
  const reading = new Map<string, Promise<void>>();
  const decided = (outcome: CallCheckOutcome) => options.onOutcome?.(outcome);

  /** The provider said 401: the check's session is confirmed, unless another check may have been the call's. */
  async function confirm(check: FreeCallCheckRow): Promise<void> {
    const outcome = await store.transaction(async (tx) => {
      const rivals = await rivalChecks(tx, check);
      if (rivals.length > 0) {
        await moveChecks(tx, [check.id, ...rivals.map((rival) => rival.id)], ['waiting', 'confirmed'], 'conflict');
        return 'conflict' as const;
      }
      return (await moveChecks(tx, [check.id], ['waiting'], 'confirmed')) === 1 ? ('confirmed' as const) : null;
    });
    if (outcome) decided(outcome);
  }

  /** One read of a waiting check at the provider, unless another reader has it (or, for a hint, read it lately). */
  async function read(check: FreeCallCheckRow, hinted: boolean): Promise<void> {
    if (check.expires_at <= store.now()) {
      if ((await moveChecks(store, [check.id], ['waiting'], 'ended')) === 1) decided('ended');
      return;
    }
    const until = store.now() + options.timeoutMs + 5_000;
    const claimed = hinted ? await claimCheckReadIfStale(store, check.id, until, store.now() - HINTED_READ_EVERY_MS) : await claimCheckRead(store, check.id, until);
    if (!claimed) return;
    let state: CheckState | null = null;
    try {
      state = await provider.read(check.check_id);
    } catch (error) {
      decided('read-failed');
      options.log(`free call check ${check.check_id} not read`, error);
    }
    await finishCheckRead(store, check.id);
    if (state === 'confirmed') await confirm(check);
    else if (state === 'ended' && (await moveChecks(store, [check.id], ['waiting'], 'ended')) === 1) decided('ended');
  }

  function readOnce(check: FreeCallCheckRow, hinted = false): Promise<void> {
    const running = reading.get(check.check_id);
    if (running) return running;
    const started = read(check, hinted).finally(() => reading.delete(check.check_id));
    reading.set(check.check_id, started);
    return started;
  }

  return {
    async start(sessionId, phone) {
      if (!(await phoneEnteredForRestore(store, sessionId, phone))) return null;
      const check = await provider.start(phone).catch((error: unknown) => {
        decided('start-failed');
        throw error;
      });
      await store.transaction(async (tx) => {
        await replaceChecksOfSession(tx, sessionId, phone);
        await insertCheck(tx, {
          session_id: sessionId,
          phone,
          check_id: check.checkId,
          call_phone: check.callPhone,
          call_phone_pretty: check.callPhonePretty,
          expires_at: tx.now() + FREE_CALL_WINDOW_MS,
        });
      });
      decided('started');
      return { callPhone: check.callPhone, callPhonePretty: check.callPhonePretty };
    },

    async status(sessionId, phone) {
      let check = await checkOfSession(store, sessionId, phone);
      if (!check) return { status: 'none', check: null };
      if (check.state === 'waiting') {
        await readOnce(check);
        check = (await checkById(store, check.id)) ?? check;
      }
      return { status: statusOf[check.state], check };
    },

    async signedIn(check) {
      await moveChecks(store, [check.id], ['confirmed'], 'signed-in');
    },

    async hint(checkId) {
      const check = await checkByCheckId(store, checkId);
      if (check?.state === 'waiting') await readOnce(check, true);
    },
  };
}
