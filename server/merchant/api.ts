/**
 * The merchant API, `/merchant/v1/`: what a merchant's ERP calls to issue bills and points, to read payments back and
 * to refund them (refundRoutes.ts). Its own encapsulated plugin with its own rules, none of the page's:
 * - bearer keys (compared as hashes in constant time), no cookies read or set, no CSRF (every route is exempt);
 * - a request limit per key;
 * - every route's body, params, query and answers typed from its JSON schema, validated with every error listed;
 * - `Idempotency-Key` on every POST (idempotency.ts);
 * - ONE error shape, `{ error: { code, message, fields? } }`;
 * - its OpenAPI 3.1 document generated from those schemas by @fastify/swagger, registered here so it sees only these
 *   routes.
 */
import crypto from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { createBill } from '../billing/bills';
import { billByOid } from '../billing/queries';
import type { AppOptions } from '../config';
import { cancelBill } from '../payments/closing';
import { paymentsPage } from '../payments/queries';
import type { AttemptRow, PaymentStatus } from '../payments/tables';
import { everyProblemCompiler } from '../platform/schemaCompilers';
import type { Store } from '../store/store';
import { billInputOf, serverMaximums } from './billInput';
import { ApiError, badInputCode, domainError, validationFields, type ErrorCode } from './errors';
import { answerOnce } from './idempotency';
import { holdRoutes } from './holdRoutes';
import { handoverRoutes } from './handoverRoutes';
import { pointsRoutes } from './pointsRoutes';
import { refundRoutes } from './refundRoutes';
import {
  billSchema,
  createBillBody,
  errorResponses,
  errorSchema,
  idempotencyHeaders,
  objectOidParams,
  paymentsPageSchema,
  paymentsQuery,
} from './schemas';
import { billView, decodeCursor, encodeCursor, paymentView, withDetails } from './views';
import { named } from '../operations/named';

declare module 'fastify' {
  interface FastifyRequest {
    /** Which merchant API key the request came with (a hash prefix, never the key). */
    merchantKeyId: string | null;
  }
}

export const MERCHANT_PREFIX = '/merchant/v1';

/** A key's id: the first 16 hex digits of its SHA-256, so no table or log ever holds a key. */
export const keyIdOf = (key: string) => crypto.createHash('sha256').update(key).digest('hex').slice(0, 16);

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest();

const send = (reply: FastifyReply, statusCode: number, code: ErrorCode, message: string, fields?: { field: string; message: string }[]) =>
  reply.code(statusCode).send({ error: { code, message, ...(fields ? { fields } : {}) } });

const isPosition = (value: unknown): value is [number, string] =>
  Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string';

export interface MerchantApiOptions {
  options: AppOptions;
  /** The keys that open the API (configured, or the sandbox's development key). */
  keys: string[];
}

export const merchantApi: FastifyPluginAsyncJsonSchemaToTs<{ Options: MerchantApiOptions }> = async (app, { options, keys }) => {
  const store = app.store;
  const keyHashes = keys.map((key) => ({ hash: sha256(key), id: keyIdOf(key) }));

  // Every problem of a request at once (the page's routes stop at the first).
  app.setValidatorCompiler(everyProblemCompiler());

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Checkout merchant API',
        version: '1.0.0',
        description:
          'Issue bills and loyalty points, read payments back. Bearer key in Authorization; Idempotency-Key on every POST; ' +
          'errors are { error: { code, message, fields? } }. Webhooks follow Standard Webhooks (see docs/merchant-api.md).',
      },
      servers: [{ url: options.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });

  app.decorateRequest('merchantKeyId', null);

  // A POST with no body (cancel) may still say it is JSON, as curl scripts often do: an empty JSON body is no body.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : json(request, String(body), done),
  );

  // A one-minute window per key, counted where every process counts it (the database on PostgreSQL).
  const countHit = app.hitCounter;

  app.addHook('onRequest', async (request, reply) => {
    if (request.url === `${MERCHANT_PREFIX}/openapi.json`) return;
    const match = /^Bearer ([\x21-\x7e]{1,200})$/i.exec(request.headers.authorization ?? '');
    const given = match ? sha256(match[1]!) : null;
    // Every configured key is compared, so the time taken says nothing about which one nearly matched.
    let found: string | null = null;
    for (const key of keyHashes) if (given && crypto.timingSafeEqual(key.hash, given)) found = key.id;
    if (!found) {
      return send(reply.header('www-authenticate', 'Bearer'), 401, 'unauthorized', 'Missing or unknown API key: send Authorization: Bearer <key>');
    }
    request.merchantKeyId = found;
    const limit = options.merchantRateLimitPerMinute;
    if (limit <= 0) return;
    const hits = await countHit(`merchant-key ${found}`, 60_000);
    if (hits.current > limit) {
      const retry = Math.max(1, Math.ceil(hits.ttl / 1000));
      return send(reply.header('retry-after', String(retry)), 429, 'rate_limited', `More than ${limit} requests a minute with this key: retry in ${retry} s`);
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return send(reply, error.statusCode, error.code, error.message, error.fields);
    const domain = domainError(error);
    if (domain) return send(reply, domain.statusCode, domain.code, domain.message, domain.fields);
    if (error.validation) {
      const fields = validationFields(error);
      return send(reply, 400, badInputCode(fields), 'The request has invalid fields', fields);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'merchant API request failed');
      return send(reply, 500, 'internal_error', 'Internal server error');
    }
    return send(reply, status === 404 ? 404 : 400, status === 404 ? 'not_found' : 'invalid_request', error.message);
  });
  app.setNotFoundHandler((request, reply) => send(reply, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`));

  /** Runs a POST under its Idempotency-Key; answers the first answer again on a replay. */
  const once = <T>(request: FastifyRequest, reply: FastifyReply, statusCode: number, work: (tx: Store) => Promise<T>) => answerOnce(store, request, reply, statusCode, work);

  // No per-address limit of the page's API here: this API limits per key (above). No CSRF check either: it takes no
  // cookie at all, and its bearer key is what a forged request cannot have.
  const config = { rateLimit: false, csrf: 'exempt' } as const;
  const tags = ['bills'];

  app.post(
    '/bills',
    {
      config,
      schema: {
        tags,
        summary: 'Issue a bill',
        headers: idempotencyHeaders,
        body: createBillBody,
        response: { 201: billSchema, 409: errorSchema, 422: errorSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const input = billInputOf(request.body, serverMaximums(options));
      return once(request, reply, 201, async (tx) => billView(tx, await createBill(tx, input), app.appOptions.publicUrl, app.appOptions.fiscal));
    },
  );

  app.get(
    '/bills/:objectOID',
    { config, schema: { tags, summary: 'A bill, its status and its payments', params: objectOidParams, response: { 200: billSchema, 404: errorSchema, ...errorResponses } } },
    async (request) => {
      const bill = await billByOid(store, request.params.objectOID);
      if (!bill) throw new ApiError(404, 'not_found', 'No bill with this objectOID');
      return billView(store, bill, app.appOptions.publicUrl, app.appOptions.fiscal);
    },
  );

  app.post(
    '/bills/:objectOID/cancel',
    {
      config,
      schema: {
        tags,
        summary: 'Cancel an unpaid bill',
        description: 'Its page then shows the data error and takes no new payment; a payment still open at the acquirer is refunded if paid. A paid or expired bill: 409.',
        headers: idempotencyHeaders,
        params: objectOidParams,
        response: { 200: billSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      let atAcquirer: AttemptRow[] = [];
      const answer = await once(request, reply, 200, async (tx) => {
        const cancelled = await cancelBill(tx, request.params.objectOID);
        atAcquirer = cancelled.atAcquirer;
        return billView(tx, cancelled.bill, app.appOptions.publicUrl, app.appOptions.fiscal);
      });
      // The acquirer's word on the attempts it knows, at once rather than at the next sweep: one paid just before the
      // cancel is refunded, an unpaid one ends with the acquirer's session.
      const gateway = app.gateway.on(store.forRequest(request.id));
      for (const attempt of atAcquirer) gateway.reconcileSoon(attempt.order_id);
      return answer;
    },
  );

  app.get(
    '/payments',
    {
      config,
      schema: {
        tags: ['payments'],
        summary: 'Every payment, oldest first, a page at a time (for reconciliation)',
        querystring: paymentsQuery,
        response: { 200: paymentsPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { status, since, limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(cursor, isPosition);
      if (cursor !== undefined && !after) throw new ApiError(400, 'invalid_request', 'The cursor is not one this API gave', [{ field: 'cursor', message: 'is not a cursor of this API' }]);
      const size = Number(limit ?? 50);
      // One more than asked tells whether another page follows.
      const rows = await paymentsPage(store, {
        ...(status ? { status: status as PaymentStatus } : {}),
        ...(since ? { since: Date.parse(since) } : {}),
        ...(after ? { after: { createdAt: after[0], orderId: after[1] } } : {}),
        limit: size + 1,
      });
      const page = rows.slice(0, size);
      const last = page.at(-1);
      return { data: (await withDetails(store, page)).map(paymentView), nextCursor: rows.length > size && last ? encodeCursor([last.created_at, last.order_id]) : null };
    },
  );

  await app.register(named(refundRoutes));
  await app.register(named(holdRoutes));
  await app.register(named(handoverRoutes));
  await app.register(named(pointsRoutes));

  app.get('/openapi.json', { config, schema: { hide: true } }, async () => app.swagger());
};
