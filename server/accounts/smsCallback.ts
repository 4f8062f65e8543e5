import type { FastifyPluginAsync } from 'fastify';
import { CALLBACK_ANSWER, callbackRecords } from '../smsProvider/callback';
import type { FreeCalls } from './freeCalls';
import type { TextOutbox } from './texts';

/**
 * The SMS provider's callback, `POST /api/smsru/callback`: answered `100` at once; each record is a hint to read, in
 * the background, the text's delivery or the call check from the provider itself. Lost or repeated callbacks change
 * nothing: the outbox reads delivery statuses on its own schedule, and the free-call polls read the check.
 */
export const smsCallbackRoutes: FastifyPluginAsync<{ texts: TextOutbox; calls: FreeCalls }> = async (app, { texts, calls }) => {
  // No CSRF check: the provider is no browser of ours, and nothing it says is taken on trust.
  app.post('/api/smsru/callback', { config: { csrf: 'exempt' } }, async (request, reply) => {
    for (const record of callbackRecords(request.body)) {
      if (record.kind === 'sms_status') app.background.run(`sms status ${record.smsId}`, () => texts.readDelivery(record.smsId));
      else app.background.run(`call check ${record.checkId}`, () => calls.hint(record.checkId));
    }
    return reply.type('text/plain; charset=utf-8').send(CALLBACK_ANSWER);
  });
};
