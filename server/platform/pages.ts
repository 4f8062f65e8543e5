import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { InitialData } from '../../src/services/initialData';
import type { CheckoutPageInput, RenderedPage, ResultPageInput } from '../../src/serverRender';
import type { AppOptions } from '../config';
import { fillTemplate, html, reactMarkup, type Html } from './render';

declare module 'fastify' {
  interface FastifyInstance {
    /** The built page's template, filled for the checkout, the result pages and the checkout link's 404. */
    pages: PageRenderer;
  }
}

/** A checkout link (`/pay/…`) that routing could not take answers the page's 404, not the API's JSON. */
export const isCheckoutLink = (url: string) => url.startsWith('/pay/');

/** Where the build puts the server's rendering of the page (webpack.config.ts), which /assets/ never serves. */
export const SERVER_RENDER_FILE = path.join('server', 'render.cjs');

/** What the page reads from its `config` meta tag (see src/services/pageConfig.ts). */
export interface PageConfig {
  product: AppOptions['product'];
  providerBase: string;
  environment: AppOptions['environment'];
  captchaSiteKey: string | null;
  /** The bill's public link id (the page's only name for a bill, under the provider API's field name), null off a checkout. */
  billLink: string | null;
  /** Who takes the money and how to reach them, for the page's header (a payer trusts what they can reach). */
  merchant: { name: string; supportPhone: string; supportEmail: string };
  /** The result page's "Вернуться в магазин": the paid bill's returnUrl; null elsewhere or without one. */
  returnUrl: string | null;
  /** The page's poll interval (AppOptions.pagePollMs); null: the page's own. */
  pollMs: number | null;
}

export interface PageContent {
  csrf: string;
  title: string;
  mount: Html;
  billLink: string | null;
  returnUrl?: string | null;
  /** The answers of the page's first requests and what the mount point shows (src/services/initialData.ts). */
  initial?: InitialData;
}

/** The server's rendering (src/serverRender.tsx, built to dist/server/render.cjs). */
interface ServerRender {
  renderCheckout(input: CheckoutPageInput): Promise<RenderedPage>;
  renderResult(input: ResultPageInput): Promise<RenderedPage>;
}

/**
 * Loads the build's rendering once. None (a build without it, a test's template-only folder): null, and the pages go
 * out with an empty mount point that the page's script renders into, as before the server rendered them.
 */
function serverRender(distDir: string): () => Promise<ServerRender | null> {
  const file = path.join(distDir, SERVER_RENDER_FILE);
  let loading: Promise<ServerRender | null> | null = null;
  return () =>
    (loading ??= fs.existsSync(file)
      ? import(file).then((loaded: ServerRender & { default?: ServerRender }) => loaded.default ?? loaded)
      : Promise.resolve(null));
}

/**
 * Pages from the built template (dist/index.html): the session's CSRF token, the page config, the page's initial data,
 * the title and the mount point go in through fillTemplate, which escapes every value. The checkout and the result
 * page come with what the server's rendering shows of them. Also the checkout link's 404 page.
 */
export function pageRenderer(options: AppOptions, merchantOf: () => Promise<PageConfig['merchant']>) {
  const templateFile = path.join(options.distDir, 'index.html');
  let template: string | null = null;
  const readTemplate = () => (template ??= fs.existsSync(templateFile) ? fs.readFileSync(templateFile, 'utf8') : null);
  const renderer = serverRender(options.distDir);

  // The merchant as its profile says now (an admin may have changed it at the desk): read for every page.
  const config = async (billLink: string | null, returnUrl: string | null): Promise<PageConfig> => ({
    product: options.product,
    providerBase: options.providerBase,
    environment: options.environment,
    captchaSiteKey: options.hcaptchaSiteKey,
    billLink,
    merchant: await merchantOf(),
    returnUrl,
    pollMs: options.pagePollMs,
  });

  const send = async (reply: FastifyReply, page: PageContent, status = 200, pageConfig?: PageConfig) => {
    const built = readTemplate();
    if (!built) return reply.code(503).type('text/plain; charset=utf-8').send('The page is not built yet: run `npm run build`.');
    const filled = pageConfig ?? (await config(page.billLink, page.returnUrl ?? null));
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        fillTemplate(built, {
          CSRF_TOKEN: { attribute: page.csrf },
          CONFIG: { attribute: JSON.stringify(filled) },
          INITIAL_DATA: { attribute: JSON.stringify(page.initial ?? { rendered: null }) },
          TITLE: { text: page.title },
          MOUNT: page.mount,
        }),
      );
  };

  /**
   * The server's markup of a page, or none: without a rendering, or when it fails (logged), the page renders on its
   * own from the data it carries, as a payer must never get an error page for what is only a head start.
   */
  const rendered = async (reply: FastifyReply, render: (loaded: ServerRender) => Promise<RenderedPage>): Promise<RenderedPage | null> => {
    try {
      const loaded = await renderer();
      return loaded ? await render(loaded) : null;
    } catch (error) {
      reply.log.error({ err: error }, 'the server could not render the page');
      return null;
    }
  };

  /** The checkout of a bill's link, with its first view rendered; `initial`: the bill data's answer and the user. */
  const checkout = async (
    reply: FastifyReply,
    page: { csrf: string; billLink: string; retryOrder: string | null; initial: Omit<InitialData, 'rendered'> },
    status = 200,
  ) => {
    const { csrf, billLink, retryOrder, initial } = page;
    const pageConfig = await config(billLink, null);
    const shown = await rendered(reply, (render) => render.renderCheckout({ config: pageConfig, billLink, retryOrder, initial }));
    return send(
      reply,
      {
        csrf,
        title: shown?.title ?? 'Оплата счета',
        mount: html`<div id="root">${shown ? reactMarkup(shown.markup) : ''}</div>`,
        billLink,
        initial: { ...initial, rendered: shown?.view ?? null },
      },
      status,
      pageConfig,
    );
  };

  /** A result page, with the status of its first poll (`initial.status`) rendered. */
  const result = async (
    reply: FastifyReply,
    page: { csrf: string; title: string; orderId: string | null; billOid: string | null; cancelled: boolean; returnUrl: string | null; initial: Omit<InitialData, 'rendered'> },
  ) => {
    const { csrf, title, orderId, billOid, cancelled, returnUrl, initial } = page;
    const pageConfig = await config(null, returnUrl);
    const shown = await rendered(reply, (render) => render.renderResult({ config: pageConfig, orderId, billOid, cancelled, initial }));
    return send(
      reply,
      {
        csrf,
        title,
        mount: html`<div id="result">${shown ? reactMarkup(shown.markup) : ''}</div>`,
        billLink: null,
        returnUrl,
        initial: { ...initial, rendered: shown?.view ?? null },
      },
      200,
      pageConfig,
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
        billLink: null,
      },
      404,
    );

  return { send, checkout, result, notFound };
}

export type PageRenderer = ReturnType<typeof pageRenderer>;
