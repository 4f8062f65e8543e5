/**
 * The desk's bills: issuing one through the merchant API's own validation, idempotency and code; the list's search and
 * status filters (the status filter held equal to the status rule on both engines); a bill's page; sending its link
 * by SMS and by e-mail into the sandbox's inboxes.
 */
import { billByOid } from '../../../server/billing/queries';
import { billsPage } from '../../../server/billing/search';
import { billStatus, type BillStatus } from '../../../server/billing/status';
import { expireDueBills } from '../../../server/payments/closing';
import { lettersTo } from '../../../server/sandbox/mail';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { linkFor, merchantCall, newIdempotencyKey, payBillByCard, startServer, textsTo, type TestServer } from '../helpers';
import type { FastifyInstance } from 'fastify';
import { deskAs } from './deskClient';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const rub = (value: string) => ({ value, currency: 'RUB' });

/** The webhooks' fetch into this app's sandbox inbox (which answers 204, with no body). */
const inboxFetch =
  (appOf: () => FastifyInstance): typeof fetch =>
  async (input, init = {}) => {
    const url = new URL(String(input));
    const answer = await appOf().inject({ method: 'POST', url: url.pathname, headers: Object.fromEntries(new Headers(init.headers).entries()), payload: String(init.body) });
    return new Response(answer.statusCode === 204 ? null : answer.body, { status: answer.statusCode });
  };

/** A two-position bill as the desk's form posts it (the merchant API's body). */
const twoPositions = (customer: Record<string, string> = {}) => ({
  purpose: 'Кухонный гарнитур и установка',
  amount: rub('151500.00'),
  customer: { name: 'Ёлкина Алёна', phone: '79991234567', email: 'alena@example.ru', ...customer },
  items: [
    { name: 'Кухонный гарнитур «Модерн»', quantity: 1, price: rub('150000.00'), vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
    { name: 'Установка, час', quantity: 1.5, price: rub('1000.00'), vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'service', measure: 'hour' },
  ],
});

describe('issuing a bill', () => {
  test('a manager issues a two-position bill: the API’s answer, under an Idempotency-Key, with its audit line', async () => {
    server = await startServer();
    const manager = await deskAs(server.app, 'manager');
    const key = newIdempotencyKey();
    const issued = await manager.post('/bills', twoPositions(), { 'idempotency-key': key });
    expect(issued.statusCode).toBe(201);
    const bill = issued.json();
    expect(bill).toMatchObject({ status: 'unpaid', amount: rub('151500.00'), customer: { name: 'Ёлкина Алёна', phone: '79991234567' } });
    expect(bill.items.map((item: { name: string; amount: { value: string } }) => [item.name, item.amount.value])).toEqual([
      ['Кухонный гарнитур «Модерн»', '150000.00'],
      ['Установка, час', '1500.00'],
    ]);
    // The merchant API reads the same bill the same way.
    expect((await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json()).toEqual(bill);
    // A double submit makes one bill and answers the first answer; the same key with another body is refused.
    const again = await manager.post('/bills', twoPositions(), { 'idempotency-key': key });
    expect([again.statusCode, again.headers['idempotent-replayed'], again.json().objectOID]).toEqual([201, 'true', bill.objectOID]);
    const other = await manager.post('/bills', { ...twoPositions(), purpose: 'Другое' }, { 'idempotency-key': key });
    expect([other.statusCode, other.json().error.code]).toEqual([422, 'idempotency_key_reused']);
    const admin = await deskAs(server.app, 'admin');
    const audit = (await admin.get('/audit')).json().lines;
    expect(audit).toContainEqual(expect.objectContaining({ action: 'bill.issued', subject: bill.objectOID, by: 'manager@demo.local' }));
  });

  test('one validation: a bad bill is refused with the very fields and messages the merchant API gives', async () => {
    server = await startServer();
    const manager = await deskAs(server.app, 'manager');
    const bad = {
      purpose: '',
      amount: rub('100.00'),
      customer: { phone: '89991234567', email: 'not-an-address' },
      expiresAt: '2020-01-01T00:00:00Z',
      items: [{ name: 'Позиция', quantity: 1, price: rub('99.00'), vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' }],
    };
    const desk = await manager.post('/bills', bad, { 'idempotency-key': newIdempotencyKey() });
    const api = await merchantCall(server.app, 'POST', '/bills', bad);
    expect(desk.statusCode).toBe(400);
    expect(desk.json()).toEqual(api.json());
    const unparsed = { ...twoPositions(), items: [{ ...twoPositions().items[0]!, price: rub('12,50'), vat: 'vat99' }] };
    const deskSchema = await manager.post('/bills', unparsed, { 'idempotency-key': newIdempotencyKey() });
    const apiSchema = await merchantCall(server.app, 'POST', '/bills', unparsed);
    expect(deskSchema.json()).toEqual(apiSchema.json());
    expect(deskSchema.json().error.fields.map((field: { field: string }) => field.field)).toEqual(expect.arrayContaining(['items[0].price.value', 'items[0].vat']));
  });

  test('the new-bill form is the API’s own schema, with the server’s fiscal defaults', async () => {
    server = await startServer();
    const form = (await (await deskAs(server.app, 'manager')).get('/bill-form')).json();
    expect(form.schema.properties.items.items.properties.vat.enum).toContain('vat22');
    expect(form.schema.required).toEqual(['purpose', 'amount']);
    expect(form.fiscal).toEqual({ vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity' });
  });
});

describe('the bills list', () => {
  test('search by number, name (any case, ё or е), phone as typed, e-mail; newest first; paged', async () => {
    server = await startServer();
    const manager = await deskAs(server.app, 'manager');
    const issued = (await manager.post('/bills', twoPositions(), { 'idempotency-key': newIdempotencyKey() })).json().objectOID as string;
    server.clock.advance(1000);
    const later = (await manager.post('/bills', twoPositions({ name: 'Петров Павел', phone: '79990000777', email: 'p@example.ru' }), { 'idempotency-key': newIdempotencyKey() })).json()
      .objectOID as string;
    const found = async (q: string) => (await manager.get(`/bills?q=${encodeURIComponent(q)}`)).json().bills.map((bill: { objectOID: string }) => bill.objectOID);
    expect(await found('ЕЛКИНА')).toEqual([issued]);
    expect(await found('алёна')).toEqual([issued]);
    expect(await found('+7 (999) 123-45-67')).toEqual([issued]);
    expect(await found('8 999 000 07 77')).toEqual([later]);
    expect(await found('ALENA@EXAMPLE')).toEqual([issued]);
    expect(await found(issued.slice(0, 12))).toEqual([later, issued].filter((oid) => oid.startsWith(issued.slice(0, 12))));
    expect(await found('%')).toEqual([]);
    const all = (await manager.get('/bills')).json();
    expect(all.bills[0].objectOID).toBe(later);
    expect(all.total).toBe(9);
    expect((await manager.get('/bills?page=2')).json().bills).toEqual([]);
  });

  test('the status filter agrees with the status rule for a bill in every state', async () => {
    server = await startServer();
    const manager = await deskAs(server.app, 'manager');
    const issue = async (extra: Record<string, unknown> = {}) =>
      (await manager.post('/bills', { purpose: 'Проверка статусов', amount: rub('10.00'), ...extra }, { 'idempotency-key': newIdempotencyKey() })).json().objectOID as string;
    const cancelled = await issue();
    await merchantCall(server.app, 'POST', `/bills/${cancelled}/cancel`);
    const expiresAt = new Date(server.clock.now() + 60_000).toISOString();
    // Two bills past their time: one closed by the expiry sweep, one not swept yet (expired all the same).
    await issue({ expiresAt });
    server.clock.advance(120_000);
    await expireDueBills(server.app.store);
    const notSwept = await issue({ expiresAt: new Date(server.clock.now() + 60_000).toISOString() });
    server.clock.advance(120_000);
    await issue();
    const every = (await billsPage(server.app.store, { page: 1, size: 100 })).rows;
    for (const status of ['unpaid', 'paid', 'cancelled', 'expired'] as BillStatus[]) {
      const filtered = (await billsPage(server.app.store, { statuses: [status], page: 1, size: 100 })).rows.map((bill) => bill.oid).sort();
      const byRule = every.filter((bill) => billStatus(bill, server.clock.now()) === status).map((bill) => bill.oid).sort();
      expect([status, filtered]).toEqual([status, byRule]);
      expect(byRule.length).toBeGreaterThan(0);
    }
    expect((await billByOid(server.app.store, notSwept))!.closed_as).toBeNull();
    expect(billStatus((await billByOid(server.app.store, notSwept))!, server.clock.now())).toBe('expired');
    const two = (await manager.get('/bills?status=cancelled,paid')).json().bills.map((bill: { status: string }) => bill.status);
    expect(new Set(two)).toEqual(new Set(['cancelled', 'paid']));
  });
});

describe('a bill’s page and its link', () => {
  test('the page: positions, the pay link with its QR, payments with the actions the role may take, webhooks and their deliveries', async () => {
    const started: { app?: TestServer['app'] } = {};
    server = await startServer({ webhookFetch: inboxFetch(() => started.app!) });
    started.app = server.app;
    const manager = await deskAs(server.app, 'manager');
    const accountant = await deskAs(server.app, 'accountant');
    const oid = (await manager.post('/bills', twoPositions(), { 'idempotency-key': newIdempotencyKey() })).json().objectOID as string;
    await payBillByCard(server.app, await linkFor(server.app, oid), TEST_CARDS.pays);
    await server.app.merchant.worker.deliverDue();
    const seenBy = async (client: typeof manager) => (await client.get(`/bills/${oid}`)).json();
    const page = await seenBy(accountant);
    expect(page.bill.items).toHaveLength(2);
    expect(page.payLink.url).toBe(page.bill.payUrl);
    expect(page.payLink.qr).toMatch(/^data:image\/png;base64,/);
    const [payment] = page.bill.payments;
    expect(payment).toMatchObject({ status: 'success', refundable: payment.amount, actions: [{ kind: 'refund', max: payment.amount }] });
    expect(payment.receipt.issuer).toBe('acquirer');
    expect(page.webhooks.map((event: { type: string }) => event.type)).toEqual(['payment.succeeded', 'bill.paid']);
    expect(page.webhooks[0].deliveries[0]).toMatchObject({ error: null, statusCode: 204 });
    // A manager sees the payment, not the refund.
    expect((await seenBy(manager)).bill.payments[0].actions).toEqual([]);
    expect((await manager.get('/bills/no-such-bill')).statusCode).toBe(404);
  });

  test('‘Отправить ссылку’ by SMS through the SMS provider and by e-mail through the mail server, both in the sandbox’s inboxes', async () => {
    server = await startServer();
    const manager = await deskAs(server.app, 'manager');
    const bill = (await manager.post('/bills', twoPositions(), { 'idempotency-key': newIdempotencyKey() })).json();
    const sms = await manager.post(`/bills/${bill.objectOID}/send-link`, { channel: 'sms', to: null });
    expect(sms.json()).toMatchObject({ channel: 'sms', to: '79991234567', state: 'sent' });
    const [text] = await textsTo(server.app, '79991234567');
    expect(text!.text.replace(/\u00a0/g, ' ')).toBe(`ООО «Демо Девелопмент»: счет на 151 500,00 руб. Оплатить: ${bill.payUrl}`);
    expect(text!.text).not.toContain(bill.objectOID);

    const mail = await manager.post(`/bills/${bill.objectOID}/send-link`, { channel: 'email', to: 'Other@Example.ru' });
    expect(mail.json()).toMatchObject({ channel: 'email', to: 'other@example.ru', state: 'sent' });
    const [letter] = await lettersTo(server.app.store, 'other@example.ru', 5);
    expect(letter!.subject).toBe('Счет на оплату: Кухонный гарнитур и установка');
    expect(letter!.text).toContain(`Оплатить: ${bill.payUrl}`);
    expect(letter!.text.replace(/\u00a0/g, ' ')).toContain('Сумма: 151 500,00 руб.');
    expect(letter!.html).toContain(`href="${bill.payUrl}"`);
    const inbox = (await server.app.inject({ method: 'GET', url: '/sandbox/mail.json?to=other@example.ru' })).json();
    expect(inbox.messages[0].payLink).toBe(bill.payUrl);

    const page = (await manager.get(`/bills/${bill.objectOID}`)).json();
    expect(page.sends.map((send: { channel: string; state: string; by: string }) => [send.channel, send.state, send.by])).toEqual([
      ['email', 'sent', 'manager@demo.local'],
      ['sms', 'sent', 'manager@demo.local'],
    ]);
  });

  test('no link for a bill that is not payable, none without a recipient, at most five an hour, a provider’s refusal said and recorded', async () => {
    server = await startServer();
    const manager = await deskAs(server.app, 'manager');
    const paid = await manager.post('/bills/demo-paid/send-link', { channel: 'sms', to: '79990000009' });
    expect([paid.statusCode, paid.json().error.code]).toEqual([409, 'bill_not_payable']);
    const bare = await manager.post('/bills/demo-anon/send-link', { channel: 'email', to: null });
    expect([bare.statusCode, bare.json().error.code]).toEqual([400, 'no_recipient']);
    const badPhone = await manager.post('/bills/demo-anon/send-link', { channel: 'sms', to: '12345' });
    expect(badPhone.json().error.fields).toEqual([{ field: 'to', message: '11 цифр, начиная с 79' }]);
    for (let i = 0; i < 5; i++) expect((await manager.post('/bills/demo-anon/send-link', { channel: 'sms', to: '79990000009' })).statusCode).toBe(200);
    const sixth = await manager.post('/bills/demo-anon/send-link', { channel: 'sms', to: '79990000009' });
    expect([sixth.statusCode, sixth.json().error.code]).toEqual([429, 'too_many_sends']);

    await server.app.inject({ method: 'POST', url: '/sandbox/smsru/faults', payload: { fault: 'send-refused', on: true, phone: '79990000008' } });
    const refused = await manager.post('/bills/demo-reg/send-link', { channel: 'sms', to: '79990000008' });
    expect([refused.statusCode, refused.json().error.code]).toEqual([502, 'send_failed']);
    const sends = (await manager.get('/bills/demo-reg')).json().sends;
    expect(sends[0]).toMatchObject({ channel: 'sms', to: '79990000008', state: 'failed' });
    expect(await textsTo(server.app, '79990000008')).toEqual([]);
  });

  test('with the sandbox’s mail server, a letter carries the merchant’s logo inline', async () => {
    server = await startServer();
    const admin = await deskAs(server.app, 'admin');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    expect((await admin.post('/settings/logo', { image: png.toString('base64') })).statusCode).toBe(200);
    await admin.post('/bills/demo-anon/send-link', { channel: 'email', to: 'logo@example.ru' });
    const [letter] = await lettersTo(server.app.store, 'logo@example.ru', 1);
    // The picture travels in the letter (cid:), which the inbox's parser shows in place.
    expect(letter!.html).toContain(`<img src="data:image/png;base64,${png.toString('base64')}"`);
    expect((await billByOid(server.app.store, 'demo-anon'))!.status).toBe('open');
  });
});
