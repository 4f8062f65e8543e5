import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { signedInUser } from '../accounts/loyaltyUser';
import { ensureSession, findSession } from '../accounts/sessions';
import { billByLink } from '../billing/queries';
import type { AppOptions } from '../config';
import type { PageRenderer } from '../platform/pages';
import { isObjectOid } from '../platform/patterns';
import { objectOidSchema, orderIdSchema } from '../platform/schemas';
import { billDataAnswer } from './billData';
import { pollDepsOf, pollPayment, pollReply } from './poll';

/** What the bill data's route takes as a retry (longer is refused there): anything else, the page asks for itself. */
const MAX_RETRY_LENGTH = 200;
const orderIdPattern = new RegExp(orderIdSchema.pattern);

/**
 * The checkout page (`/pay/:link id`) and the result pages (`/success`, `/fail`), from the built page's template, each
 * with the answers of the page's first requests in it and what the server's rendering shows of them.
 */
export const pageRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions; pages: PageRenderer } }> = async (app, { options, pages }) => {
  const store = app.store;
  const secure = options.publicUrl.startsWith('https:');
  const pollDeps = pollDepsOf(app, options);

  app.get(
    '/pay/:linkId',
    // A bad id is the payer's wrong link, not an API call's mistake: the handler answers the 404 page itself.
    {
      schema: { params: { type: 'object', required: ['linkId'], properties: { linkId: objectOidSchema } }, querystring: { type: 'object', properties: { retry: {} } } },
      attachValidation: true,
    },
    async (request, reply) => {
      if (request.validationError) return pages.notFound(reply);
      const { linkId } = request.params;
      const bill = await billByLink(store, linkId);
      // An unknown bill's page shows the data error and posts nothing, so a visit without a session starts none:
      // guessing links fills no table. The id is the bill's link id: a merchant's objectOID is as unknown as any other.
      const session = bill ? await ensureSession(store, request, reply, secure) : await findSession(store, request);
      const csrf = session?.csrf_token ?? '';
      // The page asks for the bill data with the retry its address names, as given: one the bill data's route would
      // refuse (or a repeated one) is left for the page to ask about.
      const retry: unknown = request.query.retry;
      if (retry !== undefined && (typeof retry !== 'string' || retry.length > MAX_RETRY_LENGTH)) {
        return pages.checkout(reply, { csrf, billLink: linkId, retryOrder: null, initial: {} });
      }
      const answer = await billDataAnswer(store, bill, async () => session, retry, options.fiscal);
      // The user as checkUser and get-user would give it, when those calls are this server's (no other provider host).
      const user = options.providerBase === '' ? { user: await signedInUser(store, session) } : {};
      return pages.checkout(reply, { csrf, billLink: linkId, retryOrder: retry ?? null, initial: { bill: answer, ...user } }, answer.status === 404 ? 404 : 200);
    },
  );

  for (const [url, title] of [
    ['/success', 'Результат оплаты'],
    ['/fail', 'Результат оплаты'],
  ] as const) {
    app.get(
      url,
      // billOid (the bill's link id) and orderId are only looked up when they can be one; any other value is no bill
      // or no order, as the status poll would say (the page says so).
      { schema: { querystring: { type: 'object', properties: { billOid: { type: 'string' }, orderId: {}, state: {} } } } },
      async (request, reply) => {
        const session = await ensureSession(store, request, reply, secure);
        const { billOid = null, state } = request.query;
        // The page reads the address's first orderId: a repeated one is left for the page to poll.
        const orderId = typeof request.query.orderId === 'string' ? request.query.orderId : null;
        const bill = billOid !== null && isObjectOid(billOid) ? await billByLink(store, billOid) : undefined;
        // The first poll, answered now for the page to carry: the status the page shows at once.
        const polled =
          billOid !== null && orderId !== null && isObjectOid(billOid) && orderIdPattern.test(orderId)
            ? pollReply(await pollPayment(store, pollDeps, { sessionId: session.id, csrfToken: session.csrf_token, orderId, billLink: billOid, requestId: request.id }))
            : null;
        return pages.result(reply, {
          csrf: session.csrf_token,
          title,
          orderId,
          billOid,
          cancelled: state === 'return',
          returnUrl: bill?.return_url ?? null,
          initial: polled ? { status: polled } : {},
        });
      },
    );
  }
};
