import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppOptions } from '../config';
import { escapeHtml } from '../render';
import { ensureSession } from '../session';

/** What the page reads from its `config` meta tag (see src/services/pageConfig.ts). */
export interface PageConfig {
  product: AppOptions['product'];
  providerBase: string;
  environment: AppOptions['environment'];
  captchaSiteKey: string | null;
  freeCallNumber: string;
  objectOID: string | null;
}

/**
 * The checkout page (`/pay/:objectOID`) and the result pages (`/success`, `/fail`), all from the built template
 * with the session's CSRF token and the page config filled in; the built assets under /assets/.
 */
export async function pageRoutes(app: FastifyInstance, { options }: { options: AppOptions }) {
  const store = app.store;
  const templateFile = path.join(options.distDir, 'index.html');
  let template: string | null = null;
  const readTemplate = () => (template ??= fs.existsSync(templateFile) ? fs.readFileSync(templateFile, 'utf8') : null);

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
  const render = (title: string, mount: string, objectOID: string | null) => {
    const config: PageConfig = {
      product: options.product,
      providerBase: options.providerBase,
      environment: options.environment,
      captchaSiteKey: options.hcaptchaSiteKey,
      freeCallNumber: options.freeCallNumber,
      objectOID,
    };
    return { title, mount, config: JSON.stringify(config) };
  };

  const send = (reply: FastifyReply, csrf: string, page: ReturnType<typeof render>) => {
    const html = readTemplate();
    if (!html) return reply.code(503).type('text/plain; charset=utf-8').send('The page is not built yet: run `npm run build`.');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        html
          // Quoted here whether or not the template kept its quotes: the values contain spaces.
          .replace(/"?__CSRF_TOKEN__"?/, `"${escapeHtml(csrf)}"`)
          .replace(/"?__CONFIG__"?/, `"${escapeHtml(page.config)}"`)
          .replace('__TITLE__', escapeHtml(page.title))
          .replace('__MOUNT__', page.mount),
      );
  };

  app.get<{ Params: { objectOID: string } }>('/pay/:objectOID', async (request, reply) => {
    const session = await ensureSession(store, request, reply, secure);
    return send(reply, session.csrf_token, render('Оплата счета', '<div id="root"></div>', request.params.objectOID));
  });

  for (const [url, title] of [
    ['/success', 'Результат оплаты'],
    ['/fail', 'Результат оплаты'],
  ] as const) {
    app.get(url, async (request, reply) => {
      const session = await ensureSession(store, request, reply, secure);
      return send(reply, session.csrf_token, render(title, '<div id="result"></div>', null));
    });
  }
}
