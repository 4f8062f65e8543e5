/**
 * The accounts module: the CSRF check of the page's POSTs, the sweep of ended sessions, the SMS outbox and its worker,
 * the free calls' checks, the account and code routes (registration, restore, sign-in, the free call, the SMS codes)
 * and the SMS provider's callback.
 */
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../config';
import { recordCallCheck, recordSmsDelivery, recordSmsSend } from '../operations/metrics';
import { every } from '../platform/jobs';
import type { CallCheckProvider, TextProvider } from '../smsProvider/port';
import { createCaptchaVerifier } from './captcha';
import { codeRoutes } from './codeRoutes';
import { csrfCheck } from './csrf';
import { freeCalls, type CallCheckOutcome as FreeCallOutcome, type FreeCalls } from './freeCalls';
import { providerRoutes } from './providerRoutes';
import { accountRoutes } from './routes';
import { textSeal } from './sealedText';
import { SESSION_LIFE, sweepEndedSessions } from './sessions';
import { smsCallbackRoutes } from './smsCallback';
import { textOutbox, type TextOutbox, type TextOutcome } from './texts';
import { named } from '../operations/named';

declare module 'fastify' {
  interface FastifyInstance {
    /** The SMS outbox: codes' and passwords' texts, their sends and delivery statuses (its worker: start, stop). */
    texts: TextOutbox;
    /** The free calls' checks at the provider. */
    freeCalls: FreeCalls;
  }
}

export async function accountsModule(app: FastifyInstance, options: AppOptions, { provider }: { provider: TextProvider & CallCheckProvider }): Promise<void> {
  const store = app.store;
  const log = (message: string, error?: unknown) => app.log.warn({ err: error }, message);
  csrfCheck(app, store);
  // Ended sessions are refused on use already; this deletes the rows of those nobody comes back to (every process
  // sweeps; a second sweep of the same rows deletes nothing).
  every(app, SESSION_LIFE.sweepEveryMs, () => void sweepEndedSessions(store).catch((error: unknown) => app.log.error({ err: error }, 'session sweep failed')));

  const texts = textOutbox({
    store,
    provider,
    seal: await textSeal(store),
    retryScheduleMs: options.smsRetryScheduleMs,
    timeoutMs: options.smsTimeoutMs,
    pollMs: options.smsPollMs,
    log,
    onOutcome: countSend,
    onDelivery: (delivery) => recordSmsDelivery(delivery === 'delivered' ? 'delivered' : 'undelivered'),
    later: (name, task) => app.background.run(name, task),
  });
  const calls = freeCalls({ store, provider, timeoutMs: options.smsTimeoutMs, log, onOutcome: countCallCheck });
  app.decorate('texts', texts);
  app.decorate('freeCalls', calls);
  // Retries and delivery statuses run with the server (tests that drive them by hand turn the worker off); the worker
  // stops with the others on close, a graceful stop included.
  app.workers.add('sms texts', { ...(options.smsWorker ? { start: () => texts.start() } : {}), stop: () => texts.stop() });

  const verifyCaptcha = createCaptchaVerifier(options);
  await app.register(named(codeRoutes), { texts, verifyCaptcha });
  await app.register(named(accountRoutes), { options, texts, verifyCaptcha, passwordCost: options.passwordCost });
  await app.register(named(providerRoutes), { options, verifyCaptcha, calls });
  await app.register(named(smsCallbackRoutes), { texts, calls });
}

/** A text's outcome as the metrics count sends: only an attempt that reached (or tried to reach) the provider counts. */
function countSend(outcome: TextOutcome): void {
  if (outcome === 'accepted' || outcome === 'refused') recordSmsSend(outcome);
  // Not taken while the provider was down or silent: this try failed, whether or not another follows.
  else if (outcome === 'retrying' || outcome === 'failed') recordSmsSend('failed');
}

/** A call check's outcome as the metrics count them ('ended': the check expired without the call). */
function countCallCheck(outcome: FreeCallOutcome): void {
  recordCallCheck(outcome === 'ended' ? 'expired' : outcome === 'read-failed' || outcome === 'start-failed' ? 'failed' : outcome);
}
