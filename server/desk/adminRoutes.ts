/**
 * The desk's admin pages: the merchant's settings (name, support contacts, logo, offer documents, webhook URL with a
 * test event), the staff, the audit log. Every change is written with its audit line in one transaction.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { sendTestEvent } from '../merchant/testEvent';
import { OFFER_BLANKS } from '../profile/offers';
import { changeLogo, changeProfile, LOGO_MAX_BYTES, LOGO_TYPES, logoOf, payerMerchant, readProfile } from '../profile/profile';
import { deskRoute } from './access';
import { audit, AUDIT_PAGE, auditPage } from './audit';
import type { DeskDeps } from './deps';
import { DeskError } from './errors';
import { emptyBody, logoBody, newStaffBody, pageQuery, settingsBody, staffChangeBody, staffParams } from './schemas';
import { changeStaff, oneTimePassword, putStaff, resetPassword } from './staff';
import { allStaff } from './staffQueries';
import { auditView, staffView } from './views';

const profileView = (profile: Awaited<ReturnType<typeof readProfile>>) => ({
  ...profile,
  logo: profile.logo ? { type: profile.logo.type, url: `/desk/api/logo?v=${profile.logo.updatedAt}` } : null,
  blanks: OFFER_BLANKS,
  logoTypes: LOGO_TYPES,
  logoMaxBytes: LOGO_MAX_BYTES,
});

const noBody = { preValidation: async (request: { body: unknown }) => void (request.body ??= {}) };

export const adminRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: DeskDeps }> = async (app, deps) => {
  const store = app.store;
  const { options } = deps;

  app.get('/settings', { config: deskRoute('settings.manage') }, async () => profileView(await readProfile(store, deps.profile)));

  app.post('/settings', { config: deskRoute('settings.manage'), schema: { body: settingsBody } }, async (request) => {
    const staff = request.staff!;
    await store.forRequest(request.id).transaction(async (tx) => {
      const changed = await changeProfile(tx, request.body);
      if (changed.length > 0) await audit(tx, staff, 'settings.changed', 'settings', { fields: changed });
    });
    return profileView(await readProfile(store, deps.profile));
  });

  app.post('/settings/logo', { config: deskRoute('settings.manage'), bodyLimit: 400 * 1024, schema: { body: logoBody } }, async (request) => {
    const staff = request.staff!;
    const image = request.body.image;
    await store.forRequest(request.id).transaction(async (tx) => {
      await changeLogo(tx, image === null ? null : Buffer.from(image, 'base64'));
      await audit(tx, staff, 'logo.changed', 'settings', { removed: image === null });
    });
    return profileView(await readProfile(store, deps.profile));
  });

  // The logo for the desk's header and settings (the e-mail carries its own copy).
  app.get('/logo', { config: deskRoute('signed-in') }, async (_request, reply) => {
    const logo = await logoOf(store);
    if (!logo) throw new DeskError(404, 'not_found', 'Логотип не задан');
    return reply.type(logo.type).header('cache-control', 'private, max-age=3600').send(logo.bytes);
  });

  app.post('/settings/webhook-test', { config: deskRoute('settings.manage'), schema: { body: emptyBody }, ...noBody }, async (request) => {
    const staff = request.staff!;
    const url = await app.merchant.currentWebhookUrl();
    if (!url) throw new DeskError(409, 'webhook_off', 'Адрес для вебхуков не задан');
    const merchant = await payerMerchant(store, deps.profile);
    const delivery = await sendTestEvent({ url, secret: app.merchant.webhookSecret }, { fetch: options.webhookFetch, timeoutMs: options.webhookTimeoutMs, now: store.now(), merchantName: merchant.name });
    await store.forRequest(request.id).transaction((tx) => audit(tx, staff, 'webhook.tested', 'settings', { url, statusCode: delivery.statusCode, error: delivery.error }));
    return { ...delivery, delivered: delivery.statusCode !== null && delivery.statusCode >= 200 && delivery.statusCode < 300 };
  });

  app.get('/staff', { config: deskRoute('staff.manage') }, async () => {
    const now = store.now();
    return { staff: (await allStaff(store)).map((member) => staffView(member, now)) };
  });

  app.post('/staff', { config: deskRoute('staff.manage'), schema: { body: newStaffBody } }, async (request, reply) => {
    const staff = request.staff!;
    const { staff: added, oneTimePassword } = await putStaff(store, { email: request.body.email, role: request.body.role, name: request.body.name ?? '' }, options.passwordCost, false);
    await store.forRequest(request.id).transaction((tx) => audit(tx, staff, 'staff.added', added.email, { role: added.role }));
    return reply.code(201).send({ staff: staffView(added, store.now()), oneTimePassword });
  });

  app.post('/staff/:id', { config: deskRoute('staff.manage'), schema: { params: staffParams, body: staffChangeBody } }, async (request) => {
    const staff = request.staff!;
    const id = Number(request.params.id);
    if (id === staff.id && (request.body.disabled === true || (request.body.role !== undefined && request.body.role !== staff.role))) {
      throw new DeskError(409, 'invalid_request', 'Свою роль и доступ меняет другой администратор');
    }
    const changed = await store.forRequest(request.id).transaction(async (tx) => {
      const member = await changeStaff(tx, id, request.body);
      await audit(tx, staff, 'staff.changed', member.email, request.body);
      return member;
    });
    return { staff: staffView(changed, store.now()) };
  });

  app.post('/staff/:id/password', { config: deskRoute('staff.manage'), schema: { params: staffParams, body: emptyBody }, ...noBody }, async (request) => {
    const staff = request.staff!;
    const made = await oneTimePassword(options.passwordCost);
    const member = await store.forRequest(request.id).transaction(async (tx) => {
      const reset = await resetPassword(tx, Number(request.params.id), made.hash);
      await audit(tx, staff, 'staff.password_reset', reset.email);
      return reset;
    });
    return { staff: staffView(member, store.now()), oneTimePassword: made.password };
  });

  app.get('/audit', { config: deskRoute('audit.read'), schema: { querystring: pageQuery } }, async (request) => {
    const page = Number(request.query.page ?? 1);
    const { rows, total } = await auditPage(store, page);
    return { lines: rows.map(auditView), page, pageSize: AUDIT_PAGE, total };
  });
};
