import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { AppOptions } from '../config';
import { fillTemplate, html, type Html } from './render';

declare module 'fastify' {
  interface FastifyInstance {
    /** The built page's template, filled for the checkout, the result pages and the checkout link's 404. */
    pages: PageRenderer;
  }
}

/** A checkout link (`/pay/…`) that routing could not take answers the page's 404, not the API's JSON. */
export const isCheckoutLink = (url: string) => url.startsWith('/pay/');

/** What the page reads from its `config` meta tag (see src/services/pageConfig.ts). */
export interface PageConfig {
  product: AppOptions['product'];
  providerBase: string;
  environment: AppOptions['environment'];
  captchaSiteKey: string | null;
  /** The bill's public link id (the page's only name for a bill, under the provider API's field name), null off a checkout. */
  objectOID: string | null;
  /** Who takes the money and how to reach them, for the page's header (a payer trusts what they can reach). */
  merchant: { name: string; supportPhone: string; supportEmail: string };
  /** The result page's "Вернуться в магазин": the paid bill's returnUrl; null elsewhere or without one. */
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
