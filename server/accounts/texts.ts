/**
 * The SMS outbox and its sender. A text (a code, a password) is written in the transaction that decides it, sealed
 * (sealedText.ts), and held for the asker: right after the commit the request sends it itself (`sendNow`) and tells
 * the payer what became of it. The worker (every process runs one) sends what no request did: a text whose first try
 * met the provider down, and one whose asker died before trying, once its hold has run out. Every attempt is taken
 * with a lease (one conditional UPDATE), so two senders never send one text at once, and everything lives in the
 * database, so a restart loses nothing.
 *
 * Exactly once towards the payer: a text the provider took is never sent again; one it refused is not retried (the
 * same request would be refused again); one it did not take because it was down or silent is tried again on the retry
 * schedule, the same words each time, but never once its code has died or its time is over. The provider's id, status
 * code and delivery (read by `sms/status` on a schedule, and at once on the provider's callback) stay with the row for
 * support; the words are erased once the text is settled.
 */
import { rounds } from '../operations/workers';
import { SmsProviderError, type Delivery, type TextProvider } from '../smsProvider/port';
import type { RootStore, Store } from '../store/store';
import { voidCode } from './codeQueries';
import type { TextSeal } from './sealedText';
import type { SmsMessageRow } from './tables';
import {
  claimDeliveryRead,
  claimStatusRead,
  claimText,
  codeIsLive,
  dueTexts,
  insertText,
  recordDelivery,
  recordText,
  statusDueTexts,
  textById,
  textBySmsId,
} from './textQueries';

/** What the caller's transaction decided to send: the words, to whom, what for, and until when they make sense. */
export interface QueuedText {
  phone: string;
  text: string;
  kind: 'code' | 'password';
  codeId?: number | null;
  sessionId: string | null;
  sendUntil: number;
}

/**
 * What became of a text: taken by the provider, refused by it (for good), not taken while it is down (tried again
 * later), given up (the retries ran out), or not sent (its code died, its time is over), or in another sender's hands.
 */
export type TextOutcome = 'accepted' | 'refused' | 'retrying' | 'failed' | 'expired' | 'busy';

/** The delivery status is read this long after the provider took the text, then after each further delay. */
export const STATUS_READ_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000] as const;

/**
 * A text's delivery is read from the provider at most once in this time, however many readers ask: the worker on its
 * schedule, and every callback naming the text (the callback is unauthenticated, so it must not be a way to make us
 * call the provider over and over).
 */
export const DELIVERY_READ_EVERY_MS = 10_000;

/** Texts taken per look at the outbox. */
const BATCH = 20;

export interface TextOutbox {
  /** Writes a text in the caller's transaction, held for the asker's own first attempt; answers its id. */
  queue(store: Store, text: QueuedText): Promise<number>;
  /** The asker's own first attempt at the text it queued, right after the commit (it holds the text already). */
  sendQueued(id: number): Promise<TextOutcome>;
  /** The payer asks again for a text not yet taken: an attempt now, unless another sender holds it. */
  sendNow(id: number): Promise<TextOutcome>;
  /** One round of the worker: every due text sent, every due delivery status read (tests call it by hand). */
  runOnce(): Promise<void>;
  /**
   * The provider said a text's delivery changed (its callback, a hint): read it now, if it is on the way and no read of
   * it is in flight or was made less than DELIVERY_READ_EVERY_MS ago (in any process). A read in flight in this process
   * is shared.
   */
  readDelivery(smsId: string): Promise<void>;
  start(): void;
  /** Stops the worker and waits for the round in flight (an attempt in flight is aborted by its own time-out). */
  stop(): Promise<void>;
}

export interface TextOutboxOptions {
  store: RootStore;
  provider: TextProvider;
  seal: TextSeal;
  retryScheduleMs: readonly number[];
  /** The provider's time-out per call: the hold of an attempt covers it. */
  timeoutMs: number;
  pollMs: number;
  log: (message: string, error?: unknown) => void;
  /** Told of every outcome, where it is decided (a counter of sends by outcome belongs here). */
  onOutcome?: (outcome: TextOutcome) => void;
  /** Told once a taken text's delivery is final (delivered or not), where it is read. */
  onDelivery?: (delivery: Exclude<Delivery, 'on the way'>) => void;
  /** Runs a task after the call that asked for it (the app's background work, which a graceful stop waits for). */
  later?: (name: string, task: () => Promise<void>) => void;
}

/** How many callbacks naming a text not yet known are remembered: anyone may post one, so the memory is bounded. */
const OVERTAKEN_KEPT = 1_000;

export function textOutbox(options: TextOutboxOptions): TextOutbox {
  const { store, provider, seal } = options;
  // Held long enough for one attempt and its record; a process that dies holding it frees it by then.
  const holdMs = options.timeoutMs + 30_000;
  // A status read holds its text this long, so that no other read of it starts meanwhile: longer than a read can take
  // (readStatus cuts it to DELIVERY_READ_EVERY_MS from the read's start once it is over).
  const readHoldMs = Math.max(DELIVERY_READ_EVERY_MS, options.timeoutMs + 5_000);
  // The callbacks' reads in flight in this process, by the provider's id of the text: a callback arriving meanwhile shares it.
  const hinted = new Map<string, Promise<void>>();
  // Set by stop(): a round in flight takes no further text.
  let closing = false;
  // The provider's ids named by a callback before the send that got them was recorded (the provider may post its
  // callback before its answer to the send reaches us): read as soon as the send is recorded, not on the schedule.
  const overtaken = new Set<string>();

  /** The one place a text's outcome is decided and recorded. */
  async function settle(row: SmsMessageRow, outcome: TextOutcome, change: Parameters<typeof recordText>[2]): Promise<TextOutcome> {
    const settled = outcome !== 'retrying';
    // The words leave the database with the text's pending state.
    const recorded = await recordText(store, row.id, { ...change, ...(settled ? { sealed_text: null } : {}) });
    if (!recorded) return 'busy';
    options.onOutcome?.(outcome);
    if (outcome !== 'accepted') options.log(`text ${row.id} (${row.kind}) ${outcome}${change.error ? `: ${change.error}` : ''}`);
    return outcome;
  }

  /** One attempt at a text held by this sender. */
  async function attempt(row: SmsMessageRow): Promise<TextOutcome> {
    const t = store.now();
    const attempts = row.attempts + 1;
    if (row.send_until <= t || (row.code_id !== null && !(await codeIsLive(store, row.code_id)))) {
      return settle(row, 'expired', { state: 'expired', error: row.error ?? 'not sent: its code is no longer valid or its time is over' });
    }
    let words: string;
    try {
      words = seal.open(row.sealed_text ?? '');
    } catch {
      return settle(row, 'failed', { state: 'failed', attempts, error: 'the sealed text cannot be read (the sms_text_key setting changed?)' });
    }
    try {
      const { smsId } = await provider.send(row.phone, words);
      const outcome = await settle(row, 'accepted', {
        state: 'accepted',
        attempts,
        sms_id: smsId,
        status_code: 100,
        delivery: 'on the way',
        error: null,
        accepted_at: store.now(),
        next_status_at: store.now() + STATUS_READ_DELAYS_MS[0],
      });
      if (overtaken.delete(smsId)) (options.later ?? ((_name, task) => void task()))(`sms status ${smsId}`, () => readDelivery(smsId));
      return outcome;
    } catch (error) {
      const failure = error instanceof SmsProviderError ? error : new SmsProviderError('sms/send', 'network', String(error));
      const recorded = { attempts, status_code: failure.statusCode, error: failure.message.slice(0, 500) };
      if (!failure.down) {
        // Refused for good: its code must not be resumed as if it were on its way.
        if (row.code_id !== null) await voidCode(store, row.code_id);
        return settle(row, 'refused', { ...recorded, state: 'refused' });
      }
      const delay = options.retryScheduleMs[row.attempts];
      const next = store.now() + (delay ?? 0);
      if (delay === undefined || next >= row.send_until) return settle(row, 'failed', { ...recorded, state: 'failed' });
      return settle(row, 'retrying', { ...recorded, next_attempt_at: next });
    }
  }

  /** What became of a text no longer pending, as an outcome. */
  const outcomeOf = (row: SmsMessageRow | undefined): TextOutcome | null => (!row ? 'failed' : row.state === 'pending' ? null : row.state);

  async function sendQueued(id: number): Promise<TextOutcome> {
    const row = await textById(store, id);
    // Its hold was taken when it was queued (queue), so no other sender touches it before this first attempt.
    return outcomeOf(row) ?? (row!.attempts === 0 ? attempt(row!) : 'busy');
  }

  async function sendNow(id: number): Promise<TextOutcome> {
    const row = await textById(store, id);
    const settled = outcomeOf(row);
    if (settled) return settled;
    const held = await claimText(store, id, store.now() + holdMs, false);
    return held ? attempt(held) : 'busy';
  }

  async function sendDue(): Promise<void> {
    for (;;) {
      const due = await dueTexts(store, BATCH);
      let taken = 0;
      for (const id of due) {
        if (closing) return;
        const row = await claimText(store, id, store.now() + holdMs, true);
        if (!row) continue;
        taken += 1;
        await attempt(row);
      }
      if (due.length < BATCH || taken === 0) return;
    }
  }

  /**
   * Reads a taken text's delivery, held by this reader (claimStatusRead, claimDeliveryRead); the next read follows the
   * schedule until the status is final. The hold, long enough for the read, is cut to DELIVERY_READ_EVERY_MS from its
   * start once the read is over.
   */
  async function readStatus(row: SmsMessageRow): Promise<void> {
    if (!row.sms_id) return;
    const started = store.now();
    const reads = row.status_reads + 1;
    const delay = STATUS_READ_DELAYS_MS[reads];
    const nextRead = delay === undefined ? null : (row.accepted_at ?? started) + delay;
    const read = { status_reads: reads, status_read_until: started + DELIVERY_READ_EVERY_MS };
    try {
      const status = await provider.status(row.sms_id);
      const final = status.delivery !== 'on the way';
      await recordDelivery(store, row.id, { ...read, status_code: status.statusCode, delivery: status.delivery, next_status_at: final ? null : nextRead, error: null });
      if (status.delivery !== 'on the way') options.onDelivery?.(status.delivery);
    } catch (error) {
      await recordDelivery(store, row.id, { ...read, next_status_at: nextRead, error: error instanceof Error ? error.message.slice(0, 500) : String(error) });
    }
  }

  async function readDueStatuses(): Promise<void> {
    for (const id of await statusDueTexts(store, BATCH)) {
      if (closing) return;
      // Moved on for a minute while this sender reads it: another process skips it meanwhile.
      const row = await claimStatusRead(store, id, store.now() + 60_000, store.now() + readHoldMs);
      if (row) await readStatus(row);
    }
  }

  async function runOnce(): Promise<void> {
    await sendDue();
    await readDueStatuses();
  }

  function readDelivery(smsId: string): Promise<void> {
    const running = hinted.get(smsId);
    if (running) return running;
    const read = (async () => {
      let row = await textBySmsId(store, smsId);
      if (!row) {
        remember(smsId);
        // Its send may have been recorded while this looked: looked at once more, it is read now or when recorded.
        row = await textBySmsId(store, smsId);
        if (!row) return;
        overtaken.delete(smsId);
      }
      if (row.state !== 'accepted' || row.delivery !== 'on the way') return;
      const held = await claimDeliveryRead(store, row.id, store.now() + readHoldMs);
      if (held) await readStatus(held);
    })().finally(() => hinted.delete(smsId));
    hinted.set(smsId, read);
    return read;
  }

  function remember(smsId: string): void {
    if (overtaken.size >= OVERTAKEN_KEPT) overtaken.delete(overtaken.values().next().value!);
    overtaken.add(smsId);
  }

  const loop = rounds(options.pollMs, runOnce, (error) => options.log('text worker round failed', error));

  return {
    async queue(tx, text) {
      return insertText(tx, {
        phone: text.phone,
        kind: text.kind,
        code_id: text.codeId ?? null,
        session_id: text.sessionId,
        sealed_text: seal.seal(text.text),
        send_until: text.sendUntil,
        lease_until: tx.now() + holdMs,
      });
    },
    sendQueued,
    sendNow,
    runOnce,
    readDelivery,
    start() {
      if (loop.started) return;
      closing = false;
      // Its first round at once finds the texts left by a process that stopped (or died).
      loop.start();
    },
    async stop() {
      closing = true;
      await loop.stop();
    },
  };
}
