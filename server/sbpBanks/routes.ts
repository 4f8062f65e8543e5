import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { AppOptions } from '../config';
import { createSbpBankList, type Logo } from './list';

/** The list changes at most once a day: phones keep it an hour and may use a stale copy while they revalidate. */
const LIST_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';
const LOGO_CACHE = 'public, max-age=86400';
export const REFRESH_EVERY_MS = 24 * 60 * 60 * 1000;

/** Whether the client's copy (If-None-Match) is the list being served; weak comparison, as for a GET. */
export function isFresh(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** The best encoding the client accepts of those the list is kept in. */
export function encodingFor(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

/**
 * `GET /api/sbp-banks`: the fast-payment member banks for the page's bank list, cacheable with an ETag
 * (304 when the page's copy is current), compressed once per list. `GET /api/sbp-banks/logos/:id`: the bank's logo
 * fetched from NSPK and kept, so the page loads images from its own origin only (the CSP stays strict) and tells no
 * third party who is paying; 404 when there is none, and the page shows the bank's initials. With the sandbox on, the
 * logos are the sandbox's stand-ins, made here: no call out, no 404. With SBP_BANKS_URL the
 * list is refreshed at start and once a day, keeping the last good one. No database: the list is the server's data.
 */
export const sbpBankRoutes: FastifyPluginAsyncJsonSchemaToTs<{
  Options: { options: Pick<AppOptions, 'sbpBanksUrl' | 'sbpFetch' | 'now'>; standInLogos?: (bank: { id: string; name: string }) => Logo };
}> = async (app, { options, standInLogos }) => {
  const list = createSbpBankList({ sourceUrl: options.sbpBanksUrl, fetch: options.sbpFetch, log: app.log, now: options.now, ...(standInLogos ? { standIns: standInLogos } : {}) });

  app.get('/api/sbp-banks', async (request, reply: FastifyReply) => {
    const served = list.current;
    // Over the API's no-store: this answer is the same for everybody and changes once a day.
    void reply.header('cache-control', LIST_CACHE).header('etag', served.etag).header('vary', 'accept-encoding');
    if (isFresh(request.headers['if-none-match'], served.etag)) return reply.code(304).send();
    const encoding = encodingFor(request.headers['accept-encoding']);
    void reply.type('application/json; charset=utf-8');
    if (!encoding) return reply.send(served.body);
    return reply.header('content-encoding', encoding).send(encoding === 'br' ? served.br : served.gzip);
  });

  app.get(
    '/api/sbp-banks/logos/:id',
    { schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^\\d{12}$' } } } } },
    async (request, reply) => {
      const logo = await list.logo(request.params.id);
      if (!logo) return reply.code(404).send({ success: false, error: 'Логотип банка не найден' });
      return reply.header('cache-control', LOGO_CACHE).type(logo.type).send(logo.bytes);
    },
  );

  if (options.sbpBanksUrl) {
    // Not awaited: the server starts with the last good list while the download runs.
    app.addHook('onReady', async () => void list.refresh());
    const timer = setInterval(() => void list.refresh(), REFRESH_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
};
