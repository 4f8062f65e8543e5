import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { AppOptions } from '../config';
import { fillTemplate, html, type Html } from './render';
import { ensureSession, findSession } from '../accounts/sessions';
import { isObjectOid, objectOidSchema } from './schemas';

/** What the page reads from its `config` meta tag (see src/services/pageConfig.ts). */
export interface PageConfig {
  product: AppOptions['product'];
  providerBase: string;
  environment: AppOptions['environment'];
  captchaSiteKey: string | null;
  freeCallNumber: string;
  objectOID: string | null;
  /** Who takes the money and how to reach them, for the page's header (issue 17: trust). */
  merchant: { name: string; supportPhone: string; supportEmail: string };
  /** The result page's "Вернуться в магазин": the paid bill's returnUrl (issue 14); null elsewhere or without one. */
  returnUrl: string | null;
}

export interface PageContent {
  csrf: string;
  title: string;
  mount: Html;
  objectOID: string | null;
  returnUrl?: string | null;
}

/**
 * Pages from the built template (dist/index.html): the session's CSRF token, the page config, the title and the
 * mount point go in through fillTemplate, which escapes every value. Also the checkout link's 404 page.
 */
export function pageRenderer(options: AppOptions) {
  const templateFile = path.join(options.distDir, 'index.html');
  let template: string | null = null;
  const readTemplate = () => (template ??= fs.existsSync(templateFile) ? fs.readFileSync(templateFile, 'utf8') : null);

  const config = (objectOID: string | null, returnUrl: string | null): PageConfig => ({
    product: options.product,
    providerBase: options.providerBase,
    environment: options.environment,
    captchaSiteKey: options.hcaptchaSiteKey,
    freeCallNumber: options.freeCallNumber,
    objectOID,
    merchant: { name: options.merchantName, supportPhone: options.merchantSupportPhone, supportEmail: options.merchantSupportEmail },
    returnUrl,
  });

  const send = (reply: FastifyReply, page: PageContent, status = 200) => {
    const built = readTemplate();
    if (!built) return reply.code(503).type('text/plain; charset=utf-8').send('The page is not built yet: run `npm run build`.');
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        fillTemplate(built, {
          CSRF_TOKEN: { attribute: page.csrf },
          CONFIG: { attribute: JSON.stringify(config(page.objectOID, page.returnUrl ?? null)) },
          TITLE: { text: page.title },
          MOUNT: page.mount,
        }),
      );
  };

  /** The 404 of a checkout link whose bill id cannot be one: no session, nothing for the page's script to mount. */
  const notFound = (reply: FastifyReply) =>
    send(
      reply,
      {
        csrf: '',
        title: 'Документ не найден',
        mount: html`<div class="page"><main class="card" id="main"><h1 class="step-title">Ошибка 404</h1><p role="alert">Документ не найден. Проверьте ссылку</p></main></div>`,
        objectOID: null,
      },
      404,
    );

  return { send, notFound };
}

export type PageRenderer = ReturnType<typeof pageRenderer>;

/** The checkout page (`/pay/:objectOID`), the result pages (`/success`, `/fail`) and the built assets under /assets/. */
export const pageRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions; pages: PageRenderer } }> = async (app, { options, pages }) => {
  const store = app.store;
  await app.register(fastifyStatic, {
    root: options.distDir,
    prefix: '/assets/',
    index: false,
    // Hashed file names never change content, so browsers may keep them for a year.
    immutable: true,
    maxAge: '365d',
    // The build writes .br/.gz twins of the scripts and styles (scripts/precompress.ts); send those when accepted.
    preCompressed: true,
    setHeaders: (res) => res.setHeader('vary', 'accept-encoding'),
  });

  const secure = options.publicUrl.startsWith('https:');

  app.get(
    '/pay/:objectOID',
    // A bad id is the payer's wrong link, not an API call's mistake: the handler answers the 404 page itself.
    { schema: { params: { type: 'object', required: ['objectOID'], properties: { objectOID: objectOidSchema } } }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return pages.notFound(reply);
      const { objectOID } = request.params;
      // An unknown bill's page shows the data error and posts nothing, so a visit without a session starts none:
      // guessing links fills no table.
      const session = (await store.billByOid(objectOID)) ? await ensureSession(store, request, reply, secure) : await findSession(store, request);
      return pages.send(reply, { csrf: session?.csrf_token ?? '', title: 'Оплата счета', mount: html`<div id="root"></div>`, objectOID });
    },
  );

  for (const [url, title] of [
    ['/success', 'Результат оплаты'],
    ['/fail', 'Результат оплаты'],
  ] as const) {
    app.get(
      url,
      // billOid is only looked up when it can be a bill's id; any other value is no bill (the page says so itself).
      { schema: { querystring: { type: 'object', properties: { billOid: { type: 'string' } } } } },
      async (request, reply) => {
        const session = await ensureSession(store, request, reply, secure);
        const billOid = request.query.billOid;
        const bill = billOid !== undefined && isObjectOid(billOid) ? await store.billByOid(billOid) : undefined;
        return pages.send(reply, { csrf: session.csrf_token, title, mount: html`<div id="result"></div>`, objectOID: null, returnUrl: bill?.return_url ?? null });
      },
    );
  }
};
