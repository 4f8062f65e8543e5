/**
 * The desk's capture, release and handover: an accountant does each through the merchant API's own requests (the same
 * acquirer call once, the same idempotency, webhooks and bill status), with an audit line; a manager is not offered them
 * and is refused 403, with nothing written. The new-bill form's parts and capture take the API's one validation.
 */
import { closingReceiptsOfBill } from '../../../server/payments/closingReceiptQueries';
import { attemptByOrder } from '../../../server/payments/queries';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { exchangesOfAttempt, webhookEvents } from '../../support/rows';
import { linkOf, merchantCall, newIdempotencyKey, payBillByCard, startServer, type TestServer } from '../helpers';
import { deskAs, type DeskClient } from './deskClient';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const rub = (value: string) => ({ value, currency: 'RUB' });
const position = (name: string, price: string) => ({ name, quantity: 1, price: rub(price), vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'service' });

/** A deposit bill issued at the desk (150 000.00, two positions, captured by hand), held on the payer's card. */
async function heldAtDesk(accountant: DeskClient) {
  const issued = await accountant.post(
    '/bills',
    { purpose: 'Бронь автомобиля', amount: rub('150000.00'), capture: 'manual', paymentTypes: [{ code: 'ALL', name: 'Карта' }], items: [position('Бронь', '75000.00'), position('Договор', '75000.00')] },
    { 'idempotency-key': newIdempotencyKey() },
  );
  expect(issued.statusCode).toBe(201);
  const bill = issued.json<{ objectOID: string; payUrl: string; capture: string }>();
  expect(bill.capture).toBe('manual');
  const orderId = await payBillByCard(server.app, linkOf(bill.payUrl), TEST_CARDS.pays);
  await server.app.background.idle();
  return { objectOID: bill.objectOID, orderId };
}

/** The webhooks told of a bill, oldest first. */
async function toldOf(objectOID: string): Promise<string[]> {
  const events = (await webhookEvents(server.app.store, 1000)).map((event) => ({ type: event.type, data: JSON.parse(event.payload).data }));
  return events
    .filter((event) => event.data.objectOID === objectOID)
    .reverse()
    .map((event) => event.type);
}

const sent = async (orderId: string, method: string) => (await exchangesOfAttempt(server.app.store, orderId)).filter((exchange) => exchange.method === method).length;

describe('a hold at the desk', () => {
  test('shown with its deadline; a manager is offered nothing and refused 403; an accountant captures a part once, audited, as the API would', async () => {
    server = await startServer();
    const accountant = await deskAs(server.app, 'accountant');
    const manager = await deskAs(server.app, 'manager');
    const { objectOID, orderId } = await heldAtDesk(accountant);
    const heldUntil = new Date((await attemptByOrder(server.app.store, orderId))!.held_until!).toISOString();

    const page = (await accountant.get(`/bills/${objectOID}`)).json();
    expect(page.bill.status).toBe('held');
    expect(page.bill.payments[0]).toMatchObject({ status: 'held', heldUntil, part: rub('150000.00') });
    expect(page.bill.payments[0].actions).toEqual([
      { kind: 'capture', max: rub('150000.00') },
      { kind: 'release', max: rub('150000.00') },
    ]);
    const seen = (await manager.get(`/bills/${objectOID}`)).json();
    expect(seen.bill.payments[0]).toMatchObject({ status: 'held', heldUntil, actions: [] });
    for (const move of ['capture', 'release']) {
      const refused = await manager.post(`/payments/${orderId}/${move}`, {}, { 'idempotency-key': newIdempotencyKey() });
      expect([refused.statusCode, refused.json().error.code]).toEqual([403, 'forbidden']);
    }
    expect((await attemptByOrder(server.app.store, orderId))!.state).toBe('held');

    // More than is held: the API's refusal, word for word, and nothing moves.
    const over = await accountant.post(`/payments/${orderId}/capture`, { amount: rub('150000.01') }, { 'idempotency-key': newIdempotencyKey() });
    expect([over.statusCode, over.json().error.code, over.json().error.message]).toEqual([409, 'capture_exceeds_held', '150000.01 RUB is more than is held: 150000.00 RUB']);

    const key = newIdempotencyKey();
    const captured = await accountant.post(`/payments/${orderId}/capture`, { amount: rub('100000.00') }, { 'idempotency-key': key });
    expect(captured.statusCode).toBe(200);
    expect(captured.json()).toMatchObject({ orderId, status: 'success', part: rub('100000.00'), heldUntil: null });
    // The payment as the API shows it, to the field.
    const { refunds: _refunds, ...byApi } = (await merchantCall(server.app, 'GET', `/payments/${orderId}`)).json();
    expect(captured.json()).toEqual(byApi);
    const replay = await accountant.post(`/payments/${orderId}/capture`, { amount: rub('100000.00') }, { 'idempotency-key': key });
    expect([replay.statusCode, replay.json().status]).toEqual([200, 'success']);
    expect(await sent(orderId, 'deposit.do')).toBe(1);

    await server.app.background.idle();
    expect((await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json()).toMatchObject({ status: 'paid', paid: rub('100000.00') });
    expect(await toldOf(objectOID)).toEqual(expect.arrayContaining(['payment.succeeded', 'bill.paid']));
    const after = (await accountant.get(`/bills/${objectOID}`)).json();
    expect(after.history.filter((line: { action: string }) => line.action.startsWith('hold.'))).toEqual([
      expect.objectContaining({ action: 'hold.captured', subject: orderId, by: 'accountant@demo.local', details: { amount: '100000.00' } }),
    ]);
    // Captured, it is no longer held: no capture nor release offered, and asking again is the API's 409.
    expect(after.bill.payments[0].actions.map((action: { kind: string }) => action.kind)).toEqual(['refund']);
    const again = await accountant.post(`/payments/${orderId}/release`, {}, { 'idempotency-key': newIdempotencyKey() });
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'payment_not_held']);
  });

  test('an accountant releases it: the payment released, the bill unpaid again, payment.released told, the release audited', async () => {
    server = await startServer();
    const accountant = await deskAs(server.app, 'accountant');
    const { objectOID, orderId } = await heldAtDesk(accountant);
    const released = await accountant.post(`/payments/${orderId}/release`, {}, { 'idempotency-key': newIdempotencyKey() });
    expect(released.statusCode).toBe(200);
    expect(released.json()).toMatchObject({ orderId, status: 'released' });
    expect(await sent(orderId, 'reverse.do')).toBe(1);
    await server.app.background.idle();
    const page = (await accountant.get(`/bills/${objectOID}`)).json();
    expect(page.bill.status).toBe('unpaid');
    expect(page.bill.payments[0].actions).toEqual([]);
    expect(await toldOf(objectOID)).toContain('payment.released');
    expect(page.history.map((line: { action: string; subject: string }) => [line.action, line.subject])).toContainEqual(['hold.released', orderId]);
  });
});

describe('a handover at the desk', () => {
  /** A bill prepaid in full by card, its receipt a prepayment's. */
  async function prepaid(accountant: DeskClient) {
    const issued = await accountant.post(
      '/bills',
      { purpose: 'Автомобиль, предоплата', amount: rub('3000.00'), customer: { email: 'ivan@example.ru' }, paymentTypes: [{ code: 'ALL', name: 'Карта' }], items: [position('Автомобиль', '3000.00')] },
      { 'idempotency-key': newIdempotencyKey() },
    );
    const bill = issued.json<{ objectOID: string; payUrl: string }>();
    const orderId = await payBillByCard(server.app, linkOf(bill.payUrl), TEST_CARDS.pays);
    await server.app.background.idle();
    return { objectOID: bill.objectOID, orderId };
  }

  test('a manager is offered none and refused 403; an accountant marks it: handed_over, its closing receipt, the audit line; once', async () => {
    server = await startServer();
    const accountant = await deskAs(server.app, 'accountant');
    const manager = await deskAs(server.app, 'manager');
    const { objectOID, orderId } = await prepaid(accountant);
    expect((await accountant.get(`/bills/${objectOID}`)).json().actions).toEqual([{ kind: 'handover', max: rub('3000.00') }]);
    expect((await manager.get(`/bills/${objectOID}`)).json().actions).toEqual([]);
    const refused = await manager.post(`/bills/${objectOID}/handover`, {}, { 'idempotency-key': newIdempotencyKey() });
    expect([refused.statusCode, refused.json().error.code]).toEqual([403, 'forbidden']);
    expect(await closingReceiptsOfBill(server.app.store, objectOID)).toEqual([]);

    const key = newIdempotencyKey();
    const handed = await accountant.post(`/bills/${objectOID}/handover`, {}, { 'idempotency-key': key });
    expect(handed.statusCode).toBe(200);
    expect(handed.json()).toMatchObject({ objectOID, status: 'handed_over', closingReceipts: [{ orderId, amount: rub('3000.00') }] });
    const replay = await accountant.post(`/bills/${objectOID}/handover`, {}, { 'idempotency-key': key });
    expect([replay.statusCode, replay.json().handedOverAt]).toEqual([200, handed.json().handedOverAt]);
    expect(await closingReceiptsOfBill(server.app.store, objectOID)).toHaveLength(1);
    // Another key: the API's 409, in its words.
    const twice = await accountant.post(`/bills/${objectOID}/handover`, {}, { 'idempotency-key': newIdempotencyKey() });
    expect([twice.statusCode, twice.json().error.code]).toEqual([409, 'already_handed_over']);

    const page = (await accountant.get(`/bills/${objectOID}`)).json();
    expect(page.bill).toMatchObject({ status: 'handed_over', handedOverAt: handed.json().handedOverAt, closingReceipts: [{ orderId, amount: rub('3000.00') }] });
    expect(page.actions).toEqual([]);
    expect(page.history.filter((line: { action: string }) => line.action === 'bill.handed_over')).toEqual([expect.objectContaining({ subject: objectOID, by: 'accountant@demo.local' })]);
    expect((await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json().status).toBe('handed_over');
  });

  test('a bill paid in full by a receipt that was no prepayment is not offered one: there is nothing to close, as the API says', async () => {
    server = await startServer();
    const accountant = await deskAs(server.app, 'accountant');
    const issued = await accountant.post(
      '/bills',
      { purpose: 'Шиномонтаж', amount: rub('2400.00'), paymentTypes: [{ code: 'ALL', name: 'Карта' }], items: [{ ...position('Шиномонтаж', '2400.00'), paymentMethod: 'full_payment' }] },
      { 'idempotency-key': newIdempotencyKey() },
    );
    const bill = issued.json<{ objectOID: string; payUrl: string }>();
    await payBillByCard(server.app, linkOf(bill.payUrl), TEST_CARDS.pays);
    await server.app.background.idle();
    const page = (await accountant.get(`/bills/${bill.objectOID}`)).json();
    expect([page.bill.status, page.actions]).toEqual(['paid', []]);
    const refused = await accountant.post(`/bills/${bill.objectOID}/handover`, {}, { 'idempotency-key': newIdempotencyKey() });
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'nothing_to_close']);
  });

  test('an unpaid bill is not offered one, and asked anyway is the API’s 409 nothing_to_close', async () => {
    server = await startServer();
    const accountant = await deskAs(server.app, 'accountant');
    const issued = (await accountant.post('/bills', { purpose: 'Счет', amount: rub('100.00') }, { 'idempotency-key': newIdempotencyKey() })).json();
    expect((await accountant.get(`/bills/${issued.objectOID}`)).json().actions).toEqual([]);
    const refused = await accountant.post(`/bills/${issued.objectOID}/handover`, {}, { 'idempotency-key': newIdempotencyKey() });
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'nothing_to_close']);
  });
});

describe('a new bill’s parts and capture at the desk', () => {
  test('parts with their minimum are issued as the API issues them; parts with a manual capture are refused by the API’s own field and words', async () => {
    server = await startServer();
    const manager = await deskAs(server.app, 'manager');
    const parts = await manager.post('/bills', { purpose: 'Квартира', amount: rub('2500000.00'), parts: { minimum: rub('500000.00') } }, { 'idempotency-key': newIdempotencyKey() });
    expect(parts.statusCode).toBe(201);
    expect(parts.json()).toMatchObject({ parts: { minimum: rub('500000.00') }, capture: 'automatic', remaining: rub('2500000.00') });

    const body = { purpose: 'Бронь', amount: rub('1000.00'), parts: { minimum: rub('100.00') }, capture: 'manual' };
    const atDesk = await manager.post('/bills', body, { 'idempotency-key': newIdempotencyKey() });
    const atApi = await merchantCall(server.app, 'POST', '/bills', body);
    expect(atDesk.statusCode).toBe(400);
    expect(atDesk.json()).toEqual(atApi.json());
    expect(atDesk.json().error.fields).toContainEqual({ field: 'parts', message: expect.stringMatching(/^cannot be given with capture manual/) });
  });
});
