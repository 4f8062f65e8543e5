/**
 * The desk's API, `/desk/api/`: the calls of the desk's page. Its own encapsulated plugin, with the rules of a page of
 * ours (a session cookie, a CSRF token on every POST: access.ts) and the merchant API's error shape and validation
 * (every problem of a body at once, by field), so the domain's answers read the same at both doors.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { everyProblemCompiler } from '../platform/schemaCompilers';
import { deskAccess } from './access';
import { adminRoutes } from './adminRoutes';
import { billRoutes } from './billRoutes';
import type { DeskDeps } from './deps';
import { deskErrorHandler } from './errors';
import { paymentRoutes } from './paymentRoutes';
import { sessionRoutes } from './sessionRoutes';
import { named } from '../operations/named';

export const DESK_API_PREFIX = '/desk/api';

export const deskApi: FastifyPluginAsyncJsonSchemaToTs<{ Options: DeskDeps }> = async (app, { options, texts, mail, profile }) => {
  // Handed on without the plugin's own options (its prefix would apply again).
  const deps: DeskDeps = { options, texts, mail, profile };
  app.setValidatorCompiler(everyProblemCompiler());
  deskAccess(app, app.store, { idleMs: deps.options.deskIdleMs, secure: deps.options.publicUrl.startsWith('https:') });
  app.setErrorHandler(deskErrorHandler);
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: { code: 'not_found', message: `Нет такого вызова: ${request.method} ${request.url.split('?')[0]}` } }));
  await app.register(named(sessionRoutes), deps);
  await app.register(named(billRoutes), deps);
  await app.register(named(paymentRoutes), deps);
  await app.register(named(adminRoutes), deps);
};
