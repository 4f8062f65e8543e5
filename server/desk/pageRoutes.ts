/**
 * The desk's page: `/desk/` and every address under it (the page routes itself) answer its built template
 * (dist/desk/index.html) with the session's CSRF token and the page's config; its scripts and styles are under
 * /desk/assets/. Visiting starts a desk session (not signed in), so that the sign-in form posts with a token.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppOptions } from '../config';
import { fillTemplate } from '../platform/render';
import { ensureDeskSession } from './sessions';

/** What the desk's page reads from its `desk-config` meta tag (src/desk/services/deskConfig.ts). */
export interface DeskPageConfig {
  /** The sandbox is on: the page points to its inboxes. */
  sandbox: boolean;
  /** A session ends after this long without a request; the page signs out after it too. */
  idleMs: number;
}

export const DESK_DIST = 'desk';

export const deskPageRoutes: FastifyPluginAsync<{ options: AppOptions }> = async (app, { options }) => {
  const dir = path.join(options.distDir, DESK_DIST);
  const templateFile = path.join(dir, 'index.html');
  let template: string | null = null;
  const readTemplate = () => (template ??= fs.existsSync(templateFile) ? fs.readFileSync(templateFile, 'utf8') : null);
  const secure = options.publicUrl.startsWith('https:');
  const config: DeskPageConfig = { sandbox: options.sandbox, idleMs: options.deskIdleMs };

  if (fs.existsSync(dir)) {
    await app.register(fastifyStatic, {
      root: dir,
      prefix: '/desk/assets/',
      index: false,
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      preCompressed: true,
      // The template is served filled, never as it is.
      allowedPath: (pathName) => pathName !== '/index.html',
      setHeaders: (res) => res.setHeader('vary', 'accept-encoding'),
    });
  }

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const built = readTemplate();
    if (!built) return reply.code(503).type('text/plain; charset=utf-8').send('The desk is not built yet: run `npm run build`.');
    const { session } = await ensureDeskSession(app.store, request, reply, { idleMs: options.deskIdleMs, secure });
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(fillTemplate(built, { CSRF_TOKEN: { attribute: session.csrf_token }, CONFIG: { attribute: JSON.stringify(config) }, TITLE: { text: 'Кабинет магазина' } }));
  };
  app.get('/desk', async (_request, reply) => reply.redirect('/desk/', 301));
  app.get('/desk/', page);
  app.get('/desk/*', page);
};
