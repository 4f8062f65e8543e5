import { lastCode, linkOf, merchantCall, openPage, payBySbp, snapshot, startServer, textsTo, type TestServer } from '../helpers';
import { billByOid } from '../../../server/billing/queries';

/**
 * Security: a merchant's bill is named on the payer's side by an unguessable link id, never by the objectOID
 * the merchant chose (`erp-order-1001`), and its initial data carries what the page shows and nothing more. The demo
 * bills and their sandbox copies keep readable links: their link id is their objectOID.
 */

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const CUSTOMER = { name: 'Иванов Иван Иванович', phone: '79991234567', email: 'ivanov@example.ru', custNo: 'ERP-42' };

/** A merchant's bill with a guessable objectOID, a customer with phone and e-mail, points and a receipt address. */
async function merchantBill(objectOID = 'erp-order-1001') {
  await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: 700, reason: 'Бонус' });
  const created = await merchantCall(server.app, 'POST', '/bills', {
    objectOID,
    purpose: 'Оплата заказа № 1001',
    amount: { value: '1500.00', currency: 'RUB' },
    customer: CUSTOMER,
    points: { enabled: true, usefulLimit: 500 },
    returnUrl: 'https://shop.example.ru/orders/1001',
    paymentTypes: [
      { code: 'ALL', name: 'Банковская карта', commission: { value: '22.50' }, showAggregatorOffer: true },
      { code: 'SBP', name: 'СБП' },
    ],
  });
  expect(created.statusCode).toBe(201);
  const bill = created.json<{ objectOID: string; payUrl: string }>();
  return { ...bill, link: linkOf(bill.payUrl) };
}

const payBody = (objectOID: string, cardTypeOID: string, pointsSum: number | null = null) => ({
  pointsSum,
  objectOID,
  cardTypeOID,
  email: 'payer@example.ru',
  userOID: null,
  manager_id: null,
});

test('a merchant bill\'s payUrl carries a link id of 144 random bits, distinct from the objectOID and from every other bill\'s', async () => {
  const { payUrl, link } = await merchantBill();
  expect(payUrl).toBe(`http://localhost:3000/pay/${link}`);
  // `pl_` and 24 base64url characters: 144 bits.
  expect(link).toMatch(/^pl_[A-Za-z0-9_-]{24}$/);
  expect(link).not.toContain('erp-order-1001');
  const links = new Set([link]);
  for (let i = 0; i < 20; i++) links.add((await merchantBill(`erp-order-${2000 + i}`)).link);
  expect(links.size).toBe(21);
  // The merchant API goes on naming it by its objectOID, and hands out the same payUrl.
  expect((await merchantCall(server.app, 'GET', '/bills/erp-order-1001')).json()).toMatchObject({ objectOID: 'erp-order-1001', payUrl });
});

test('the objectOID alone opens nothing on the page side: it is as unknown as any id', async () => {
  await merchantBill();
  const before = await snapshot(server.app);
  // The page of an unknown bill: no session started, the data error shown by the page (object-info's 404).
  const page = await server.app.inject({ method: 'GET', url: '/pay/erp-order-1001' });
  expect(page.cookies).toHaveLength(0);
  const info = await server.app.inject({ method: 'GET', url: '/ajax/object-info/erp-order-1001' });
  expect(info.statusCode).toBe(404);
  expect(info.json()).toEqual({ success: false, error: 'Документ не найден' });
  expect(info.body).not.toMatch(/Иванов|79991234567|ivanov@/);
  expect(await snapshot(server.app)).toBe(before);

  // Nor does any call of the page that names a bill.
  const client = await openPage(server.app);
  expect((await client.post('/api/getPaymentUrl/', payBody('erp-order-1001', 'erp-order-1001.ALL'))).statusCode).toBe(404);
  expect((await client.post('/api/offerText/', { type: 'aggregator', objectOID: 'erp-order-1001', cardTypeOID: 'erp-order-1001.ALL' })).statusCode).toBe(404);
  expect((await client.post('/api/getResult/', { transactionID: 'any-order', billOID: 'erp-order-1001' })).statusCode).toBe(404);
  const points = { phone: null, objectOID: 'erp-order-1001', captchaVerified: false, custNo: 'ERP-42', usePoints: true, captcha: null, purpose: 'use-points' };
  expect((await client.post('/api/send-sms/', points)).statusCode).toBe(404);
  expect(await textsTo(server.app, CUSTOMER.phone)).toHaveLength(0);
  const result = await client.get('/success?orderId=o-1&billOid=erp-order-1001');
  expect(result.body).not.toContain('shop.example.ru');
});

test('by its link id the page opens it and names it by that alone; the data masks the phone, the e-mail only prefills the receipt', async () => {
  const { link } = await merchantBill();
  const client = await openPage(server.app, link);
  const answer = await client.get(`/ajax/object-info/${link}`);
  expect(answer.statusCode).toBe(200);
  const info = answer.json();
  expect(info).toMatchObject({
    objectOID: link,
    user: { Name: CUSTOMER.name, Phone: '+7 (999) ***-**-67', Email: null },
    // The customer's e-mail only as the receipt field's prefill.
    info: { Email: CUSTOMER.email, CustNo: 'ERP-42', Summ: 1500 },
    cardTypes: [{ OID: `${link}.ALL` }, { OID: `${link}.SBP` }],
  });
  // Neither the merchant's id nor the customer's full phone is anywhere in it, and the e-mail only once, as the prefill.
  expect(answer.body).not.toMatch(/erp-order-1001|79991234567/);
  expect(answer.body.split(CUSTOMER.email)).toHaveLength(2);
});

test('every call of the page works by the link id: Pay, the offer, the status poll, the result page', async () => {
  const { link } = await merchantBill();
  const client = await openPage(server.app, link);
  const started = await client.post('/api/getPaymentUrl/', payBody(link, `${link}.SBP`));
  expect(started.statusCode).toBe(200);
  const { orderId, data } = started.json().info;
  // A payment type is named by the bill's link id: the merchant's id names none.
  expect((await client.post('/api/getPaymentUrl/', payBody(link, 'erp-order-1001.ALL'))).statusCode).toBe(400);
  const offer = await client.post('/api/offerText/', { type: 'aggregator', objectOID: link, cardTypeOID: `${link}.ALL` });
  expect(offer.statusCode).toBe(200);
  expect(offer.json().OfferDescription).toContain('Оплата заказа № 1001');

  const waiting = (await client.post('/api/getResult/', { transactionID: orderId, billOID: link })).json();
  expect(waiting).toEqual({ success: true, status: 'created', objectOID: link });
  // The reload's open attempt names its way to pay the same way.
  expect((await client.get(`/ajax/object-info/${link}`)).json().openAttempt).toMatchObject({ orderId, cardTypeOID: `${link}.SBP` });
  await payBySbp(server.app, data.payload);
  expect((await client.post('/api/getResult/', { transactionID: orderId, billOID: link })).json()).toMatchObject({ status: 'success', objectOID: link });
  expect((await merchantCall(server.app, 'GET', '/bills/erp-order-1001')).json().status).toBe('paid');

  const config = (body: string) => JSON.parse(/<meta name="config" content="([^"]*)"/.exec(body)![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as { returnUrl: string | null };
  expect(config((await client.get(`/success?orderId=${orderId}&billOid=${link}`)).body).returnUrl).toBe('https://shop.example.ru/orders/1001');
});

test("the acquirer sends the payer back to the result page named by the link id", async () => {
  const { link } = await merchantBill();
  const client = await openPage(server.app, link);
  const { formUrl } = (await client.post('/api/getPaymentUrl/', payBody(link, `${link}.ALL`))).json().info;
  const order = await server.app.store.db.selectFrom('sandbox_rbs_orders').select(['return_url', 'fail_url']).executeTakeFirstOrThrow();
  expect(formUrl).toBeTruthy();
  expect(order.return_url).toBe(`http://localhost:3000/success?billOid=${link}`);
  expect(order.fail_url).toBe(`http://localhost:3000/fail?billOid=${link}`);
});

test("the points code goes to the bill customer's phone, which the server takes from the bill; the page spends the points", async () => {
  const { link } = await merchantBill();
  const client = await openPage(server.app, link);
  const sendBody = { phone: null, objectOID: link, captchaVerified: false, custNo: 'ERP-42', usePoints: true, captcha: null, purpose: 'use-points' };
  expect((await client.post('/api/send-sms/', sendBody)).statusCode).toBe(200);
  const code = await lastCode(server.app, CUSTOMER.phone);
  // The code screen resumed after a reload compares the phone masked as the bill data gives it.
  expect((await client.get(`/ajax/object-info/${link}`)).json().sentCode).toMatchObject({ purpose: 'use-points', phone: '+7 (999) ***-**-67' });
  const checked = await client.post('/api/check-code/', { code, phone: null, objectOID: link, custNo: 'ERP-42', usePoints: true, purpose: 'use-points' });
  expect(checked.statusCode).toBe(200);
  const paid = await client.post('/api/getPaymentUrl/', payBody(link, `${link}.ALL`, 500));
  expect(paid.statusCode).toBe(200);
  expect(paid.json().info.formUrl).toBeTruthy();
});

test('the demo bills and their sandbox copies keep readable links: their link id is their objectOID', async () => {
  for (const oid of ['demo-anon', 'demo-points', 'demo-paid']) expect((await billByOid(server.app.store, oid))!.link_id).toBe(oid);
  const copy = (await server.app.inject({ method: 'POST', url: '/sandbox/bills', payload: { from: 'demo-points' } })).json().objectOID as string;
  expect((await billByOid(server.app.store, copy))!.link_id).toBe(copy);
  const client = await openPage(server.app, copy);
  const info = (await client.get(`/ajax/object-info/${copy}`)).json();
  expect(info.objectOID).toBe(copy);
  expect(info.user.Phone).toMatch(/^\+7 \(999\) \*\*\*-\*\*-\d{2}$/);
});
