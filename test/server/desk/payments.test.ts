/**
 * The desk's payments: a refund through the merchant API's own code (its lifecycle, idempotency and webhooks), the
 * figures of today, the week, the month and the last 30 days, and the CSV exports whose sums match them.
 */
import { paymentByOrder } from '../../../server/payments/queries';
import { refundsOfOrder } from '../../../server/payments/refundQueries';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { webhookEvents } from '../../support/rows';
import { fakeClock, linkFor, merchantCall, newIdempotencyKey, payBillByCard, startServer, START, type TestServer } from '../helpers';
import { deskAs } from './deskClient';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const rub = (value: string) => ({ value, currency: 'RUB' });

async function paidBill(amount: string): Promise<{ objectOID: string; orderId: string }> {
  const bill = (await merchantCall(server.app, 'POST', '/bills', { purpose: `Счет на ${amount}`, amount: rub(amount), customer: { name: 'Клиент', phone: '79991112233' } })).json();
  const orderId = await payBillByCard(server.app, await linkFor(server.app, bill.objectOID), TEST_CARDS.pays);
  return { objectOID: bill.objectOID, orderId };
}

describe('a refund from the desk', () => {
  test('an accountant refunds part of a payment: the same refund row, acquirer call, webhook and audit line as the API’s', async () => {
    server = await startServer();
    const { orderId } = await paidBill('1000.00');
    const paid = (await paymentByOrder(server.app.store, orderId))!;
    const accountant = await deskAs(server.app, 'accountant');
    const key = newIdempotencyKey();
    const refund = await accountant.post(`/payments/${orderId}/refunds`, { amount: rub('300.00'), reason: 'Отказ от установки' }, { 'idempotency-key': key });
    expect(refund.statusCode).toBe(201);
    expect(refund.json()).toMatchObject({ orderId, amount: rub('300.00'), status: 'pending', reason: 'Отказ от установки', automatic: false });
    const replay = await accountant.post(`/payments/${orderId}/refunds`, { amount: rub('300.00'), reason: 'Отказ от установки' }, { 'idempotency-key': key });
    expect([replay.headers['idempotent-replayed'], replay.json().id]).toEqual(['true', refund.json().id]);
    await server.app.gateway.makeRefunds(orderId);
    const rows = await refundsOfOrder(server.app.store, orderId);
    expect(rows.map((row) => [row.amount_kopecks, row.status, row.idempotency_key])).toEqual([[30_000, 'succeeded', key]]);
    expect((await webhookEvents(server.app.store, 50)).map((event) => event.type)).toContain('refund.succeeded');
    const page = (await accountant.get(`/bills/${paid.bill_oid}`)).json();
    // What was charged (the bill and the card's fee) less what went back.
    const left = rub(`${(paid.amount_kopecks - 30_000) / 100}.00`);
    expect(page.bill.payments[0]).toMatchObject({ refunded: rub('300.00'), refundable: left, actions: [{ kind: 'refund', max: left }] });
    expect(page.history.map((line: { action: string }) => line.action)).toContain('refund.requested');
    // More than is left: the API's refusal, word for word.
    const over = await accountant.post(`/payments/${orderId}/refunds`, { amount: rub('800.00') }, { 'idempotency-key': newIdempotencyKey() });
    expect([over.statusCode, over.json().error.code, over.json().error.message]).toEqual([409, 'refund_exceeds_remaining', `800.00 is more than remains to refund of this payment: ${left.value}`]);
  });

  test('a manager’s refund is refused with 403 and nothing is written', async () => {
    server = await startServer();
    const { orderId } = await paidBill('500.00');
    const manager = await deskAs(server.app, 'manager');
    const refused = await manager.post(`/payments/${orderId}/refunds`, {}, { 'idempotency-key': newIdempotencyKey() });
    expect([refused.statusCode, refused.json().error.code]).toEqual([403, 'forbidden']);
    expect(await refundsOfOrder(server.app.store, orderId)).toEqual([]);
  });
});

describe('figures and exports', () => {
  test('today’s, the week’s and the month’s sums by way to pay; each of the 30 days; the CSV’s sums match', async () => {
    // 2026-01-15 12:00 Moscow: a Thursday.
    server = await startServer({}, fakeClock(START));
    const first = await paidBill('1000.00');
    const second = await paidBill('234.56');
    const accountant = await deskAs(server.app, 'accountant');
    const figures = (await accountant.get('/figures')).json();
    const charged = async (orderId: string) => (await paymentByOrder(server.app.store, orderId))!.amount_kopecks;
    const total = (await charged(first.orderId)) + (await charged(second.orderId));
    const roubles = (kopecks: number) => `${Math.trunc(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
    expect(figures.today).toMatchObject({ from: '2026-01-15', count: 2, sum: rub(roubles(total)), byMethod: [{ method: 'ALL', count: 2, sum: rub(roubles(total)) }] });
    expect(figures.week).toMatchObject({ from: '2026-01-12', count: 2 });
    expect(figures.month).toMatchObject({ from: '2026-01-01', count: 2 });
    expect(figures.days).toHaveLength(30);
    expect(figures.days.at(-1)).toEqual({ date: '2026-01-15', count: 2, sum: rub(roubles(total)) });
    expect(figures.days.slice(0, -1).every((day: { count: number }) => day.count === 0)).toBe(true);

    const csv = await accountant.get('/export/payments.csv?from=2026-01-15&to=2026-01-15');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="platezhi_2026-01-15_2026-01-15.csv"');
    const raw = csv.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = raw.toString('utf8').slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    const [header, ...rows] = lines.slice(0, -1).map((line) => line.split(';'));
    expect(header!.slice(0, 6)).toEqual(['Дата и время (МСК)', 'Номер счета', 'Номер платежа', 'Способ оплаты', 'Статус', 'Сумма, руб.']);
    expect(rows).toHaveLength(2);
    const sumColumn = header!.indexOf('Сумма, руб.');
    const csvTotal = rows.reduce((sum, row) => sum + Math.round(Number(row[sumColumn]!.replace(',', '.')) * 100), 0);
    expect(csvTotal).toBe(total);
    expect(rows[0]![0]).toBe('15.01.2026 12:00:00');
    // Both ended at the same moment (the clock is fake): then by payment number.
    expect(rows.map((row) => row[2])).toEqual([first.orderId, second.orderId].sort());

    const bills = (await accountant.get('/export/bills.csv?from=2026-01-15&to=2026-01-15')).rawPayload.toString('utf8');
    expect(bills.split('\r\n')[0]).toBe('\uFEFFСоздан (МСК);Номер счета;Назначение;Сумма, руб.;Статус;Клиент;Телефон;E-mail;Оплачен (МСК);Ссылка на оплату');
    expect(bills).toContain(`;${first.objectOID};Счет на 1000.00;1000,00;Оплачен;Клиент;79991112233;;15.01.2026 12:00:00;`);
    const bad = await accountant.get('/export/payments.csv?from=2026-01-16&to=2026-01-15');
    expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'invalid_request']);
  });

  test('a text Excel would run as a formula is written as text', async () => {
    server = await startServer();
    const bill = (await merchantCall(server.app, 'POST', '/bills', { purpose: '=HYPERLINK("http://evil")', amount: rub('10.00'), customer: { name: '@Имя; с "кавычками"' } })).json();
    const admin = await deskAs(server.app, 'admin');
    const today = new Date(server.clock.now() + 3 * 3600_000).toISOString().slice(0, 10);
    const csv = (await admin.get(`/export/bills.csv?from=${today}&to=${today}`)).rawPayload.toString('utf8');
    expect(csv).toContain(`;${bill.objectOID};"'=HYPERLINK(""http://evil"")";10,00;Не оплачен;"'@Имя; с ""кавычками""";`);
  });
});
