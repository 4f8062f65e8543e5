/**
 * The merchant's settings at the desk (admins): what the payer's page shows (name, support contacts), the offer
 * documents the payer accepts (today's texts until the merchant publishes its own), the logo, the webhook URL with its
 * test event; and the staff page.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_OFFERS, offerHtml } from '../../../server/profile/offers';
import { openPage, startServer, type TestServer } from '../helpers';
import { deskAs } from './deskClient';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const unescape = (text: string) => text.replace(/&(quot|lt|gt|#39|amp);/g, (_, name: string) => ({ quot: '"', lt: '<', gt: '>', '#39': "'", amp: '&' })[name]!);
const configOf = (body: string) => JSON.parse(unescape(/<meta name="config" content="([^"]*)"/.exec(body)![1]!)) as { merchant: { name: string; supportPhone: string; supportEmail: string } };

/** The webhooks' fetch into this app (the sandbox's inbox answers 204, with no body). */
const intoApp =
  (appOf: () => FastifyInstance): typeof fetch =>
  async (input, init = {}) => {
    const url = new URL(String(input));
    const answer = await appOf().inject({ method: 'POST', url: url.pathname, headers: Object.fromEntries(new Headers(init.headers).entries()), payload: String(init.body) });
    return new Response(answer.statusCode === 204 ? null : answer.body, { status: answer.statusCode });
  };

test('an admin changes the support phone: the payer’s page shows it at once (the page, its result page), the audit says who', async () => {
  server = await startServer();
  const admin = await deskAs(server.app, 'admin');
  const before = await server.app.inject({ method: 'GET', url: '/pay/demo-anon' });
  expect(configOf(before.body).merchant.supportPhone).toBe('+7 (800) 555-01-00');
  const saved = await admin.post('/settings', { supportPhone: '+7 (495) 123-45-67', name: 'ООО «Новое имя»' });
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toMatchObject({ supportPhone: '+7 (495) 123-45-67', name: 'ООО «Новое имя»', supportEmail: 'support@example.com' });
  for (const url of ['/pay/demo-anon', '/success?orderId=x&billOid=demo-anon']) {
    const page = await server.app.inject({ method: 'GET', url });
    expect(configOf(page.body).merchant).toEqual({ name: 'ООО «Новое имя»', supportPhone: '+7 (495) 123-45-67', supportEmail: 'support@example.com' });
  }
  const audit = (await admin.get('/audit')).json().lines[0];
  expect(audit).toMatchObject({ action: 'settings.changed', by: 'admin@demo.local', details: { fields: ['name', 'supportPhone'] } });
  // '' hides a contact; a bad one is refused by its field and nothing changes.
  expect((await admin.post('/settings', { supportEmail: '' })).json().supportEmail).toBe('');
  const bad = await admin.post('/settings', { supportPhone: 'звоните', supportEmail: 'nope', name: ' ' });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().error.fields.map((field: { field: string }) => field.field)).toEqual(['name', 'supportPhone', 'supportEmail']);
  expect(configOf((await server.app.inject({ method: 'GET', url: '/pay/demo-anon' })).body).merchant.supportPhone).toBe('+7 (495) 123-45-67');
});

test('the offer documents: today’s texts by default, word for word; the merchant’s own once published, with the bill’s blanks filled', async () => {
  server = await startServer();
  const client = await openPage(server.app, 'demo-offer');
  const offer = async (type: 'aggregator' | 'executer') => (await client.post('/api/offerText/', { type, objectOID: 'demo-offer', cardTypeOID: 'demo-offer.ALL' })).json().OfferDescription as string;
  // The texts that were fixed in the code before the merchant could publish its own.
  expect(await offer('aggregator')).toBe(
    '<h2>Оферта платежного агрегатора</h2>\n<p>Платеж способом «Банковская карта» принимает платежный агрегатор по поручению получателя. Назначение платежа: Оплата дополнительного оборудования.</p>\n<p>Сервисный сбор агрегатора: 748,50 руб. Вы принимаете условия оферты, отметив «Я принимаю условия оферты» перед оплатой.</p>',
  );
  expect(await offer('executer')).toBe(
    '<h2>Условия платежа</h2>\n<p>Исполнитель принимает оплату способом «Банковская карта» в счет обязательств по документу: Оплата дополнительного оборудования.</p>\n<p>Обязательство считается исполненным с момента поступления денег исполнителю. Вы принимаете условия платежа, отметив «Я принимаю условия платежа» перед оплатой.</p>',
  );
  const admin = await deskAs(server.app, 'admin');
  const published = await admin.post('/settings', { offers: { aggregator: { title: 'Оферта ООО «Пэй»', text: 'Оплата <{способ оплаты}>: {назначение платежа}.\nСбор: {сервисный сбор}\n\nВторой абзац.' } } });
  expect(published.statusCode).toBe(200);
  expect(await offer('aggregator')).toBe('<h2>Оферта ООО «Пэй»</h2>\n<p>Оплата &lt;Банковская карта&gt;: Оплата дополнительного оборудования.<br>Сбор: 748,50 руб.</p>\n<p>Второй абзац.</p>');
  expect(published.json().offers.executer).toEqual(DEFAULT_OFFERS.executer);
  const unknown = await admin.post('/settings', { offers: { executer: { title: 'Условия', text: 'Сумма {сумма}' } } });
  expect(unknown.json().error.fields).toEqual([{ field: 'offers.executer.text', message: 'неизвестная подстановка {сумма}; можно {способ оплаты}, {назначение платежа}, {сервисный сбор}' }]);
  expect(offerHtml({ title: 't', text: '{constructor} {toString}' }, { '{способ оплаты}': '', '{назначение платежа}': '', '{сервисный сбор}': '' })).toBe('<h2>t</h2>\n<p>{constructor} {toString}</p>');
});

test('the logo: a PNG, JPEG or WebP by its bytes (never what the upload claims), at most 200 KB; served to the desk', async () => {
  server = await startServer();
  const admin = await deskAs(server.app, 'admin');
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(100, 1)]);
  const saved = await admin.post('/settings/logo', { image: png.toString('base64') });
  expect(saved.json().logo).toEqual({ type: 'image/png', url: expect.stringMatching(/^\/desk\/api\/logo\?v=\d+$/) });
  const served = await admin.get('/logo');
  expect([served.headers['content-type'], served.rawPayload.equals(png)]).toEqual(['image/png', true]);
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const refused = await admin.post('/settings/logo', { image: svg.toString('base64') });
  expect([refused.statusCode, refused.json().error.message]).toEqual([400, 'Логотип — картинка PNG, JPEG или WebP']);
  const large = await admin.post('/settings/logo', { image: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(210 * 1024)]).toString('base64') });
  expect(large.statusCode).toBe(400);
  expect((await admin.post('/settings/logo', { image: null })).json().logo).toBeNull();
  expect((await admin.get('/logo')).statusCode).toBe(404);
});

test('the webhook URL: set at the desk, the deliveries and ‘Отправить тестовое событие’ go there, signed', async () => {
  const app: { current?: FastifyInstance } = {};
  server = await startServer({ webhookFetch: intoApp(() => app.current!) });
  app.current = server.app;
  const admin = await deskAs(server.app, 'admin');
  expect((await admin.get('/settings')).json()).toMatchObject({ webhookUrl: null, webhookUrlDefault: 'http://localhost:3000/sandbox/webhooks' });
  const refused = await admin.post('/settings', { webhookUrl: 'http://erp.example.ru/hooks' });
  expect(refused.json().error.fields).toEqual([{ field: 'webhookUrl', message: 'только https (http — лишь для localhost)' }]);
  expect((await admin.post('/settings', { webhookUrl: 'http://localhost:3000/sandbox/webhooks?from=desk' })).json().webhookUrl).toBe('http://localhost:3000/sandbox/webhooks?from=desk');
  expect(await server.app.merchant.currentWebhookUrl()).toBe('http://localhost:3000/sandbox/webhooks?from=desk');
  const tested = await admin.post('/settings/webhook-test');
  expect(tested.json()).toMatchObject({ url: 'http://localhost:3000/sandbox/webhooks?from=desk', statusCode: 204, delivered: true, error: null });
  const inbox = (await server.app.inject({ method: 'GET', url: '/sandbox/webhooks.json' })).json().webhooks;
  expect(inbox[0]).toMatchObject({ type: 'webhook.test', valid: true });
  const body = JSON.parse(inbox[0].body as string) as { type: string; data: { test: boolean } };
  expect(body.data.test).toBe(true);
  // Back to the configured URL.
  await admin.post('/settings', { webhookUrl: null });
  expect(await server.app.merchant.currentWebhookUrl()).toBe('http://localhost:3000/sandbox/webhooks');
});

test('staff: an admin adds, changes a role, resets a password; each is in the audit log', async () => {
  server = await startServer();
  const admin = await deskAs(server.app, 'admin');
  const added = (await admin.post('/staff', { email: 'ivan@example.ru', name: 'Иван', role: 'manager' })).json();
  expect(added.staff).toMatchObject({ email: 'ivan@example.ru', role: 'manager', mustChangePassword: true, disabled: false, demo: false });
  const twice = await admin.post('/staff', { email: 'IVAN@example.ru', role: 'admin' });
  expect([twice.statusCode, twice.json().error.code]).toEqual([409, 'staff_exists']);
  expect((await admin.post(`/staff/${added.staff.id}`, { role: 'accountant' })).json().staff.role).toBe('accountant');
  const reset = (await admin.post(`/staff/${added.staff.id}/password`)).json();
  expect(reset.oneTimePassword).not.toBe(added.oneTimePassword);
  const list = (await admin.get('/staff')).json().staff.map((member: { email: string; role: string }) => [member.email, member.role]);
  expect(list).toEqual([
    ['accountant@demo.local', 'accountant'],
    ['admin@demo.local', 'admin'],
    ['ivan@example.ru', 'accountant'],
    ['manager@demo.local', 'manager'],
  ]);
  const actions = (await admin.get('/audit')).json().lines.map((line: { action: string; subject: string }) => `${line.action} ${line.subject}`);
  expect(actions.slice(0, 3)).toEqual(['staff.password_reset ivan@example.ru', 'staff.changed ivan@example.ru', 'staff.added ivan@example.ru']);
});
