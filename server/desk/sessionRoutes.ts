/** The desk's session: who is signed in (and the CSRF token), signing in and out, setting one's own password. */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { sensitiveLimit } from '../accounts/schemas';
import { deskRoute, type Staff } from './access';
import { audit } from './audit';
import type { DeskDeps } from './deps';
import { DeskError } from './errors';
import { passwordBody, signInBody, emptyBody } from './schemas';
import { ensureDeskSession, startDeskSession } from './sessions';
import { changeOwnPassword, signIn } from './staff';
import { staffById } from './staffQueries';
import { meView } from './views';

const moscowTime = (t: number) => new Date(t + 3 * 60 * 60_000).toISOString().slice(11, 16);

export const sessionRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: DeskDeps }> = async (app, { options }) => {
  const store = app.store;
  const secure = options.publicUrl.startsWith('https:');
  const sessionOptions = { idleMs: options.deskIdleMs, secure };

  // The page's first call, and its call after a refusal: who is signed in, and the token its POSTs carry. No live
  // session: a new one (not signed in), and whether the old one has just ended.
  app.get('/session', { config: deskRoute('session') }, async (request, reply) => {
    const { session, ended } = request.deskSession ? { session: request.deskSession, ended: false } : await ensureDeskSession(store, request, reply, sessionOptions);
    return { csrfToken: session.csrf_token, staff: request.staff ? meView(request.staff) : null, ended };
  });

  app.post('/sign-in', { config: deskRoute('session', sensitiveLimit(10)), schema: { body: signInBody } }, async (request, reply) => {
    const outcome = await signIn(store, request.body.email, request.body.password, options.passwordCost);
    if (outcome.kind === 'refused') throw new DeskError(401, 'wrong_credentials', 'Неверный e-mail или пароль');
    if (outcome.kind === 'locked') {
      if (outcome.justLocked) await store.forRequest(request.id).transaction((tx) => audit(tx, outcome.staff, 'session.locked', outcome.staff.email, { until: new Date(outcome.until).toISOString() }));
      throw new DeskError(429, 'locked', `Слишком много неверных паролей: вход закрыт до ${moscowTime(outcome.until)} (МСК)`);
    }
    // A new session in place of the one the form was opened in: an id planted before sign-in is worth nothing after.
    const session = await startDeskSession(store, reply, request.deskSession!.id, outcome.staff.id, secure);
    const staff: Staff = { id: outcome.staff.id, email: outcome.staff.email, name: outcome.staff.name, role: outcome.staff.role, mustChangePassword: outcome.staff.must_change_password === 1 };
    await store.forRequest(request.id).transaction((tx) => audit(tx, staff, 'session.signed_in', staff.email));
    return { csrfToken: session.csrf_token, staff: meView(staff), ended: false };
  });

  app.post('/sign-out', { config: deskRoute('session'), schema: { body: emptyBody }, preValidation: async (request) => void (request.body ??= {}) }, async (request, reply) => {
    const staff = request.staff;
    const session = await startDeskSession(store, reply, request.deskSession!.id, null, secure);
    if (staff) await store.forRequest(request.id).transaction((tx) => audit(tx, staff, 'session.signed_out', staff.email));
    return { csrfToken: session.csrf_token, staff: null, ended: false };
  });

  app.post('/password', { config: deskRoute('password', sensitiveLimit(10)), schema: { body: passwordBody } }, async (request) => {
    const staff = request.staff!;
    await changeOwnPassword(store, staff.id, request.body.current, request.body.password, options.passwordCost, request.deskSession!.id);
    await store.forRequest(request.id).transaction((tx) => audit(tx, staff, 'password.changed', staff.email));
    const row = (await staffById(store, staff.id))!;
    return { csrfToken: request.deskSession!.csrf_token, staff: meView({ ...staff, mustChangePassword: row.must_change_password === 1 }), ended: false };
  });
};
