import type { FastifyPluginAsync } from 'fastify';
import { CALLBACK_ANSWER, callbackRecords } from '../smsProvider/callback';
import type { FreeCalls } from './freeCalls';
import type { TextOutbox } from './texts';

/**
 * Callbacks a client may post a minute (counted where every process counts the per-client limits). The provider posts
 * one per batch of statuses; beyond this the callback is refused (429), which the provider takes as "post it again".
 */
export const SMS_CALLBACK_LIMIT_PER_MINUTE = 120;

/**
 * The SMS provider's callback, `POST /api/smsru/callback`: answered `100` at once; each record is a hint to read, in
 * the background, the text's delivery or the call check from the provider itself. Lost or repeated callbacks change
 * nothing: the outbox reads delivery statuses on its own schedule, and the free-call polls read the check.
 *
 * Anyone may post it, so it must not make us call the provider more than the ids it names are worth: each id counts
 * once per callback (at most 100 of them), and the texts and checks themselves bound how often they are read, whatever
 * the number of callbacks naming them (texts.ts, freeCalls.ts). The route also has a limit of its own.
 */
export const smsCallbackRoutes: FastifyPluginAsync<{ texts: TextOutbox; calls: FreeCalls }> = async (app, { texts, calls }) => {
  // No CSRF check: the provider is no browser of ours, and nothing it says is taken on trust.
  const config = { csrf: 'exempt', rateLimit: { max: SMS_CALLBACK_LIMIT_PER_MINUTE, timeWindow: 60_000 } } as const;
  app.post('/api/smsru/callback', { config }, async (request, reply) => {
    for (const record of callbackRecords(request.body)) {
      if (record.kind === 'sms_status') app.background.run(`sms status ${record.smsId}`, () => texts.readDelivery(record.smsId));
      else app.background.run(`call check ${record.checkId}`, () => calls.hint(record.checkId));
    }
    return reply.type('text/plain; charset=utf-8').send(CALLBACK_ANSWER);
  });
};
