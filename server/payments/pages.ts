import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ensureSession, findSession } from '../accounts/sessions';
import { billByLink } from '../billing/queries';
import type { AppOptions } from '../config';
import type { PageRenderer } from '../platform/pages';
import { isObjectOid } from '../platform/patterns';
import { html } from '../platform/render';
import { objectOidSchema } from '../platform/schemas';

/** The checkout page (`/pay/:link id`) and the result pages (`/success`, `/fail`), from the built page's template. */
export const pageRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions; pages: PageRenderer } }> = async (app, { options, pages }) => {
  const store = app.store;
  const secure = options.publicUrl.startsWith('https:');

  app.get(
    '/pay/:linkId',
    // A bad id is the payer's wrong link, not an API call's mistake: the handler answers the 404 page itself.
    { schema: { params: { type: 'object', required: ['linkId'], properties: { linkId: objectOidSchema } } }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return pages.notFound(reply);
      const { linkId } = request.params;
      // An unknown bill's page shows the data error and posts nothing, so a visit without a session starts none:
      // guessing links fills no table. The id is the bill's link id: a merchant's objectOID is as unknown as any other.
      const session = (await billByLink(store, linkId)) ? await ensureSession(store, request, reply, secure) : await findSession(store, request);
      return pages.send(reply, { csrf: session?.csrf_token ?? '', title: 'Оплата счета', mount: html`<div id="root"></div>`, objectOID: linkId });
    },
  );

  for (const [url, title] of [
    ['/success', 'Результат оплаты'],
    ['/fail', 'Результат оплаты'],
  ] as const) {
    app.get(
      url,
      // billOid (the bill's link id) is only looked up when it can be one; any other value is no bill (the page says so).
      { schema: { querystring: { type: 'object', properties: { billOid: { type: 'string' } } } } },
      async (request, reply) => {
        const session = await ensureSession(store, request, reply, secure);
        const billOid = request.query.billOid;
        const bill = billOid !== undefined && isObjectOid(billOid) ? await billByLink(store, billOid) : undefined;
        return pages.send(reply, { csrf: session.csrf_token, title, mount: html`<div id="result"></div>`, objectOID: null, returnUrl: bill?.return_url ?? null });
      },
    );
  }
};
