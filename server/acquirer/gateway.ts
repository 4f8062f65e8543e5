/**
 * The acquirer gateway: Pay registers the attempt's order (single flight across processes, never twice), the
 * acquirer's word settles an attempt (reconcile, from the callback, a poll or the sweep), and refunds go to the acquirer
 * (refunder.ts). It implements what payments ask of it (payments/gatewayPort.ts). It speaks to the acquirer through
 * its port (port.ts), in the checkout's words, and moves the attempt's chart by them (server/lifecycle/attempt.ts).
 */
import { paymentKindOf } from '../../src/services/rules/paymentKinds';
import type { BillRow, PaymentTypeRow } from '../billing/tables';
import type { AppOptions } from '../config';
import { AcquirerUnavailable, AttemptAbandoned, type Gateway, type PaymentInfo } from '../payments/gatewayPort';
import { AT_ACQUIRER, attemptChart, paymentStatusOf } from '../lifecycle/attempt';
import { stateHasTag } from '../lifecycle/chart';
import { applyAcquirerOutcome } from '../payments/outcome';
import { beginRelease, capturedItems, holdsDue, HoldRefused, warnOfExpiringHolds } from '../payments/holds';
import { attemptByOrder, itemsOfAttempt } from '../payments/queries';
import { billByOid } from '../billing/queries';
import { pendingRefundsOfOrder } from '../payments/refundQueries';
import { orderNumberOf } from '../payments/start';
import type { AttemptRow } from '../payments/tables';
import type { Background } from '../platform/background';
import { recordReceiptPositions } from '../payments/receiptPositions';
import type { RootStore, Store } from '../store/store';
import { attemptsToReconcile, markAcquirerChecked, markRegisterStarted, recordAcquirerFacts, recordOrder, withAttemptLease } from './attempts';
import { fiscalReceiptOf, type FiscalReceipt } from './orderBundle';
import { HOLDING, holdOutcomeOf, outcomeOf } from './orderOutcome';
import type { Acquirer, Order } from './port';
import { createClosingReceiptSender } from './closingReceiptSender';
import type { FiscalApi } from './fiscal';
import { createRefunder } from './refunder';
import { qrPng } from '../platform/qrPng';

// What the acquirer must answer for a way to pay follows from its kind, the rule the page opens it by.
const isCard = (type: PaymentTypeRow) => paymentKindOf(type.code) === 'redirect';
const isBankAppPay = (type: PaymentTypeRow) => paymentKindOf(type.code) === 'bank-app pay';
const isFastPayment = (type: PaymentTypeRow) => paymentKindOf(type.code) === 'fast payment';

/**
 * How long a claim to talk to the acquirer about an attempt lasts: past the time-outs of the calls it makes, so that the
 * claim of a process that died (SIGKILL) ends soon after, and another process takes over.
 */
const leaseFor = (options: AppOptions, calls: number) => options.acquirerTimeoutMs * calls + 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The attempt waits for the acquirer's word (its chart's states at the acquirer): only then is the acquirer asked. */
const waitsForAcquirer = (attempt: AttemptRow) => stateHasTag(attemptChart, attempt.state, AT_ACQUIRER);

export function createGateway(deps: {
  store: RootStore;
  acquirer: Acquirer;
  fiscal: FiscalApi;
  options: AppOptions;
  background: Background;
  /** A line of the gateway's log, naming the request it is part of (null: the server's own work). */
  log: (message: string, error?: unknown, requestId?: string | null) => void;
}): Gateway {
  const { acquirer, options } = deps;
  const now = () => options.now();
  // One reconcile in flight per attempt in this process, whichever request's gateway started it.
  const inFlight = new Map<string, { again: boolean }>();
  return gatewayOn(deps.store);

  /** The gateway whose work, its calls to the acquirer and its log lines are part of `store`'s request. */
  function gatewayOn(store: Store): Gateway {
    const refunder = createRefunder({ ...deps, store });
    const closingReceipts = createClosingReceiptSender({ ...deps, store });
    /** A call about the attempt, as part of this gateway's request (kept with the exchange). */
    const about = (attempt: string) => ({ attempt, requestId: store.requestId });
    const log = (message: string, error?: unknown) => deps.log(message, error, store.requestId);

    /** The order registered under the attempt's orderNumber, if any. */
    const findByOrderNumber = (attempt: AttemptRow): Promise<Order | null> =>
      acquirer.findOrder(orderNumberOf(attempt.order_id), about(attempt.order_id));

    /** An order found by orderNumber becomes the attempt's; a card order without its form ends the attempt. */
    async function adopt(attempt: AttemptRow, type: PaymentTypeRow, found: Order): Promise<AttemptRow> {
      if (found.orderId && !isCard(type)) return recordOrder(store, attempt.order_id, { acquirer_order_id: found.orderId, acquirer_checked_at: now() });
      await applyAcquirerOutcome(store, attempt.order_id, { type: 'form.lost' }, found.orderId ? { acquirer_order_id: found.orderId } : undefined);
      throw new AttemptAbandoned();
    }

    /**
     * The fiscal receipt of the attempt's order, its positions recorded on the attempt (in the caller's transaction);
     * undefined when the merchant has no tax system configured (its own cash register issues the receipts).
     */
    async function receiptOf(tx: Store, attempt: AttemptRow, bill: BillRow): Promise<FiscalReceipt | undefined> {
      const fiscal = options.fiscal;
      const taxSystem = attempt.receipt_tax_system ?? fiscal.taxSystem;
      if (!taxSystem) return undefined;
      const items = await recordReceiptPositions(tx, attempt, bill, { ...fiscal, taxSystem });
      const customer = { email: attempt.email ?? bill.bill_email ?? bill.client_email, phone: bill.client_phone };
      return fiscalReceiptOf(taxSystem, items, customer, attempt.created_at, fiscal.ffd);
    }

    async function register(attempt: AttemptRow, type: PaymentTypeRow, bill: BillRow): Promise<AttemptRow> {
      const fresh = (await attemptByOrder(store, attempt.order_id))!;
      if (fresh.acquirer_order_id) return fresh;
      // A register.do was sent before and its answer never came (time-out, a killed process): ask, never register twice.
      if (fresh.register_started_at !== null) {
        const found = await findByOrderNumber(fresh);
        if (found) return adopt(fresh, type, found);
      }
      // The attempt chart's move from created: a bill closed meanwhile has ended (declined) an attempt the acquirer never
      // heard of, and the chart refuses the move, so no order is registered for an ended attempt. (One already at the
      // acquirer is never ended that way.) The receipt's positions are stored with the move, once: a register.do sent
      // again carries the same receipt.
      const receipt = await store.transaction(async (tx) => {
        if (fresh.register_started_at === null && !(await markRegisterStarted(tx, fresh.order_id, now() + options.paymentSessionSecs * 1000))) return 'ended';
        return receiptOf(tx, fresh, bill);
      });
      if (receipt === 'ended') throw new AttemptAbandoned();
      // The payer comes back to the result page, which names the bill by its link id, as the checkout does.
      const result = `${options.publicUrl}/success?billOid=${encodeURIComponent(bill.link_id)}`;
      const answer = await acquirer.register(
        {
          orderNumber: orderNumberOf(fresh.order_id),
          amount: fresh.amount_kopecks,
          returnUrl: result,
          failUrl: `${options.publicUrl}/fail?billOid=${encodeURIComponent(bill.link_id)}`,
          description: bill.purpose.trim().slice(0, 512),
          email: fresh.email,
          sessionTimeoutSecs: options.paymentSessionSecs,
          callbackUrl: `${options.publicUrl}/api/acquirer/callback`,
          ...(isBankAppPay(type) ? { bankAppReturnUrl: result } : {}),
          ...(receipt ? { receipt } : {}),
          // A bill that captures by hand: registerPreAuth.do, the money held when the payer pays.
          ...(bill.capture === 'manual' ? { hold: true } : {}),
        },
        about(fresh.order_id),
      );
      if (answer.kind === 'registered') {
        return recordOrder(store, fresh.order_id, { acquirer_order_id: answer.orderId, form_url: answer.formUrl, acquirer_checked_at: now() });
      }
      // Registered before under this orderNumber (a previous try got through): take that order.
      const found = await findByOrderNumber(fresh);
      if (found) return adopt(fresh, type, found);
      throw new Error(`the acquirer says order ${fresh.order_id} was registered before, and knows no such order`);
    }

    /** Runs `work` holding the attempt's lease; answers undefined when someone else holds it. */
    const withLease = <T>(orderId: string, calls: number, work: () => Promise<T>): Promise<T | undefined> =>
      withAttemptLease(store, orderId, now() + leaseFor(options, calls), work);

    async function registered(attempt: AttemptRow, type: PaymentTypeRow, bill: BillRow): Promise<AttemptRow> {
      if (attempt.acquirer_order_id) return attempt;
      // Registering is at most two calls (the status by orderNumber, then register.do, or register.do then the status).
      const deadline = Date.now() + leaseFor(options, 2);
      for (;;) {
        const done = await withLease(attempt.order_id, 2, () => register(attempt, type, bill));
        if (done) return done;
        // A concurrent request is registering this attempt: its stored answer is ours too.
        await sleep(50);
        const seen = (await attemptByOrder(store, attempt.order_id))!;
        if (seen.acquirer_order_id) return seen;
        if (seen.status !== 'created') throw new AttemptAbandoned();
        if (Date.now() > deadline) throw new AcquirerUnavailable(new Error('another request is still registering this attempt'));
      }
    }

    async function withQr(attempt: AttemptRow): Promise<AttemptRow> {
      if (attempt.sbp_qrc_id) return attempt;
      const qr = await acquirer.sbpQr({ orderId: attempt.acquirer_order_id! }, about(attempt.order_id));
      const image = qr.renderedQr || qrPng(qr.payload, { margin: 1, width: 256 }).toString('base64');
      return (await recordAcquirerFacts(store, attempt.order_id, { sbp_qrc_id: qr.qrId, sbp_payload: qr.payload, sbp_image: image }))!;
    }

    async function paymentInfo(attempt: AttemptRow, type: PaymentTypeRow, bill: BillRow): Promise<PaymentInfo> {
      let ready: AttemptRow;
      try {
        ready = await registered(attempt, type, bill);
        if (isFastPayment(type)) ready = await withQr(ready);
      } catch (error) {
        if (error instanceof AttemptAbandoned) throw error;
        log(`acquirer unavailable for order ${attempt.order_id}`, error);
        throw new AcquirerUnavailable(error);
      }
      const base = { orderId: ready.order_id, formUrl: ready.form_url ?? '' };
      if (isFastPayment(type)) {
        return {
          ...base,
          formUrl: ready.sbp_payload!,
          data: { payload: ready.sbp_payload!, qrcId: ready.sbp_qrc_id!, image: { content: ready.sbp_image!, mediaType: 'image/png' } },
        };
      }
      if (isBankAppPay(type)) return { ...base, bankInvoiceId: ready.acquirer_order_id! };
      return base;
    }

    async function reconcileNow(orderId: string): Promise<AttemptRow | undefined> {
      return (await askAcquirer(orderId)).attempt;
    }

    async function askAcquirer(orderId: string): Promise<{ attempt: AttemptRow | undefined; answered: boolean; busy: boolean }> {
      const attempt = await attemptByOrder(store, orderId);
      if (!attempt || !waitsForAcquirer(attempt)) return { attempt, answered: false, busy: false };
      let answered = false;
      let leased = false;
      // The read, and the release (with its read back) that a hold for a bill no longer open begins.
      const read = await withLease(orderId, 3, async () => {
        leased = true;
        let current = (await attemptByOrder(store, orderId))!;
        if (!waitsForAcquirer(current)) return current;
        let found: Order | null;
        if (current.acquirer_order_id) found = await acquirer.order(current.acquirer_order_id, about(orderId));
        else {
          found = await findByOrderNumber(current);
          // Found under our order number (register.do's answer was lost): the order is the attempt's now.
          if (found?.orderId) current = await recordOrder(store, orderId, { acquirer_order_id: found.orderId });
        }
        await markAcquirerChecked(store, orderId);
        // Its state, or "no such order" (found null): either way the acquirer has said whether it was paid.
        answered = true;
        const outcome = outcomeOf(current, found, now());
        if (!outcome) return current;
        // How it ended, kept with the outcome: the receipt's card and a declined card's reason come from these; a new hold
        // keeps what it holds and when the server releases it.
        const held = outcome.type === 'acquirer.held' && current.state === 'registered' ? { held_kopecks: current.amount_kopecks, held_until: now() + options.holdReleaseAfterMs } : {};
        const moved = await applyAcquirerOutcome(store, orderId, outcome, found ? { action_code: found.actionCode, masked_pan: found.maskedPan, ...held } : undefined);
        // Held for a bill that no longer takes it: this move began its release, so reverse.do is sent now, once, under
        // the same lease (no read of the order in between takes the attempt back to held before it goes).
        if (current.state !== 'registered' || moved.state !== 'releasing') return moved;
        await sendHold(moved);
        return (await attemptByOrder(store, orderId))!;
      });
      const after = read ?? (await attemptByOrder(store, orderId));
      // A payment its bill could not keep goes back at once, and so does what a part paid past what remained of its bill
      // (their automatic refunds were written with the outcome).
      if (after?.state === 'givingBack' || (after?.state === 'paid' && (await pendingRefundsOfOrder(store, orderId)).length > 0)) await refunder.process(orderId);
      return { attempt: after, answered, busy: !leased };
    }

    /** Runs `work` holding the attempt's lease, waiting for it while another request (of any process) holds it. */
    async function whenLeased<T>(orderId: string, calls: number, work: () => Promise<T>): Promise<T> {
      const deadline = Date.now() + leaseFor(options, calls);
      for (;;) {
        const done = await withLease(orderId, calls, async () => ({ value: await work() }));
        if (done) return done.value;
        if (Date.now() > deadline) throw new AcquirerUnavailable(new Error('another request is still talking to the acquirer about this payment'));
        await sleep(50);
      }
    }

    /**
     * Sends the capture or release the attempt is in (deposit.do, reverse.do), once, and moves it by the answer. An
     * answer lost (a time-out, a refusal) is settled by reading the order: taken, let go, or still held.
     */
    async function sendHold(attempt: AttemptRow): Promise<void> {
      const mdOrder = attempt.acquirer_order_id!;
      const context = about(attempt.order_id);
      try {
        if (attempt.state === 'capturing') {
          const captured = attempt.capture_kopecks!;
          const whole = captured >= (attempt.held_kopecks ?? attempt.amount_kopecks);
          // Less than the whole: the receipt goes with the capture, for the positions taken.
          const receipt = whole ? undefined : await capturedReceipt(attempt, captured);
          await acquirer.capture({ orderId: mdOrder, amount: whole ? 0 : captured, ...(receipt ? { receipt } : {}) }, context);
          await applyAcquirerOutcome(store, attempt.order_id, { type: 'acquirer.captured', capturedKopecks: captured });
        } else {
          await acquirer.reverse({ orderId: mdOrder }, context);
          await applyAcquirerOutcome(store, attempt.order_id, { type: 'acquirer.released', reason: attempt.release_reason ?? 'expired' });
        }
      } catch (error) {
        log(`${attempt.state} ${attempt.order_id}: no answer kept; reading the order`, error);
        await readHold(attempt.order_id).catch((again: unknown) => log(`${attempt.state} ${attempt.order_id}: the order could not be read`, again));
      }
    }

    /** The order of a held attempt read back, and the attempt moved by what it says. */
    async function readHold(orderId: string): Promise<void> {
      const attempt = (await attemptByOrder(store, orderId))!;
      if (!HOLDING.has(attempt.state)) return;
      const found = await acquirer.order(attempt.acquirer_order_id!, about(orderId));
      await markAcquirerChecked(store, orderId);
      const outcome = holdOutcomeOf(attempt, found);
      if (outcome) await applyAcquirerOutcome(store, orderId, outcome);
    }

    /** The receipt of what a partial capture takes: the attempt's positions, each lowered by its share of the rest. */
    async function capturedReceipt(attempt: AttemptRow, captured: number): Promise<FiscalReceipt | undefined> {
      if (!attempt.receipt_tax_system) return undefined;
      const bill = (await billByOid(store, attempt.bill_oid))!;
      const items = capturedItems(await itemsOfAttempt(store, attempt.order_id), captured);
      const customer = { email: attempt.email ?? bill.bill_email ?? bill.client_email, phone: bill.client_phone };
      return fiscalReceiptOf(attempt.receipt_tax_system, items, customer, attempt.created_at, options.fiscal.ffd);
    }

    /**
     * A capture or release of a hold, under the attempt's lease (so no read of the order interleaves): `begin` writes it
     * (the merchant's request, or the server's release of a hold past its time) and answers whether it did; the
     * acquirer is then told once. `begin` that wrote nothing (a replay of the same request) sends nothing: an attempt
     * left capturing or releasing is settled by reading its order.
     */
    async function settleHold(orderId: string, begin: () => Promise<boolean>): Promise<void> {
      // The move, the call, and a read back when its answer is lost.
      await whenLeased(orderId, 3, async () => {
        const begun = await begin();
        const attempt = (await attemptByOrder(store, orderId))!;
        if (attempt.state !== 'capturing' && attempt.state !== 'releasing') return;
        if (begun) await sendHold(attempt);
        else await readHold(orderId);
      });
    }

    /** Holds past their heldUntil are released; the merchant is warned of those released within a day. */
    async function sweepHolds(): Promise<void> {
      await warnOfExpiringHolds(store);
      for (const attempt of await holdsDue(store, now(), 100)) {
        const begin = async () => {
          try {
            await beginRelease(store, attempt.order_id, 'expired');
            return true;
          } catch (error) {
            // Captured or released meanwhile: nothing to release.
            if (error instanceof HoldRefused) return false;
            throw error;
          }
        };
        await settleHold(attempt.order_id, begin).catch((error: unknown) => log(`sweep: release of ${attempt.order_id} failed`, error));
      }
    }

    async function abandon(orderId: string): Promise<AttemptRow | undefined> {
      const attempt = await attemptByOrder(store, orderId);
      // Only an order still waiting for its payer: a hold's money is held already, for the merchant to capture or release.
      if (!attempt?.acquirer_order_id || !waitsForAcquirer(attempt) || paymentStatusOf(attempt.state) !== 'created') return attempt;
      try {
        await acquirer.decline({ orderId: attempt.acquirer_order_id }, about(orderId));
      } catch (error) {
        // Refused (paid or ended meanwhile) or not answered: the order's status, read next, says where it stands.
        log(`decline of order ${orderId} not done; reading its status`, error);
      }
      return reconcileNow(orderId);
    }

    return {
      paymentInfo,
      settleHold,
      reconcile: reconcileNow,
      abandon,
      askAcquirer,
      reconcileSoon(orderId, why = { news: false }) {
        // One reconcile in flight per attempt. News arriving meanwhile (a callback while a poll's reconcile is still
        // waiting for the acquirer) is not dropped: the read in flight may predate it, so once it ends the acquirer is
        // asked once more. Ten polls meanwhile ask nothing more: the read in flight is as fresh as theirs would be.
        const running = inFlight.get(orderId);
        if (running) {
          running.again ||= why.news;
          return;
        }
        const job = { again: false };
        inFlight.set(orderId, job);
        deps.background.run(`reconcile ${orderId}`, async () => {
          // News, and another request (the sweep, a poll's or a Pay's read, another process) holds the lease: its read
          // may predate the news, so this one tries again every 100 ms, for as long as a lease lasts, rather than leave
          // the attempt pending (not once the app is closing: the sweep of a running process reads it).
          const deadline = Date.now() + leaseFor(options, 1);
          try {
            let news = why.news;
            do {
              news ||= job.again;
              job.again = false;
              try {
                const asked = await askAcquirer(orderId);
                const retry = news && asked.busy && asked.attempt?.status === 'created' && Date.now() < deadline && !deps.background.closing;
                if (retry) await sleep(100);
                else news = false;
              } catch (error) {
                if (!job.again) throw error;
                log(`reconcile ${orderId} failed; asking again`, error);
              }
            } while (job.again || news);
          } finally {
            inFlight.delete(orderId);
          }
        });
      },
      async sweep() {
        for (const attempt of await attemptsToReconcile(store, 100)) {
          await reconcileNow(attempt.order_id).catch((error: unknown) => log(`sweep: reconcile ${attempt.order_id} failed`, error));
        }
        await refunder.sweep();
        await sweepHolds();
        await closingReceipts.sweep();
      },
      makeRefunds: refunder.inTurn,
      refundSoon: refunder.soon,
      sendClosingReceipts: closingReceipts.sendBill,
      on: gatewayOn,
    };
  }
}
