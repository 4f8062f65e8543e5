import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { attemptByAcquirerOrder, attemptByOrder } from '../payments/queries';
import { checksumMatches } from './checksum';

/**
 * The acquirer's callback: `GET` query parameters, or the same form-encoded in a `POST`. The checksum is
 * checked (a wrong or missing one changes nothing, 400, logged); a good one is only a hint: answered 200 at once, the
 * order's status is then read from getOrderStatusExtended.do and settles the attempt. Duplicates and reordered
 * callbacks therefore change nothing.
 */
export const acquirerCallbackRoutes: FastifyPluginAsync = async (app) => {
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const source = (request.method === 'GET' ? request.query : request.body) ?? {};
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      if (typeof value !== 'string') return reply.code(400).send({ success: false, error: 'Неверные параметры уведомления' });
      params[name] = value;
    }
    if (!checksumMatches(params, await app.callbackKey())) {
      request.log.warn({ mdOrder: params.mdOrder, orderNumber: params.orderNumber, operation: params.operation }, 'acquirer callback with a wrong or missing checksum');
      return reply.code(400).send({ success: false, error: 'Неверная контрольная сумма' });
    }
    const attempt =
      (params.mdOrder ? await attemptByAcquirerOrder(app.store, params.mdOrder) : undefined) ??
      (params.orderNumber ? await attemptByOrder(app.store, params.orderNumber) : undefined);
    // The reconcile it causes is part of this request: its acquirer calls and the events of the outcome name it.
    if (attempt) app.gateway.on(app.store.forRequest(request.id)).reconcileSoon(attempt.order_id, { news: true });
    else request.log.warn({ mdOrder: params.mdOrder, orderNumber: params.orderNumber }, 'acquirer callback for an unknown order');
    return { success: true };
  };
  app.get('/api/acquirer/callback', handle);
  // No CSRF check: the acquirer is no browser of ours, and its callback is signed with the shop's key instead.
  app.post('/api/acquirer/callback', { config: { csrf: 'exempt' } }, handle);
};
