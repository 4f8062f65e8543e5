import fs from 'node:fs';
import path from 'node:path';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { demoAccount } from '../../../server/sandbox/demoBills';
import { SERVER_RENDER_FILE } from '../../../server/platform/pages';
import { Client, openPage, payBillByCard, startServer, type TestServer } from '../helpers';

/*
 * The pages carry the answers of the page's first requests (their initial-data meta tag), so the first load asks for
 * none of them again, and what the server's rendering (dist/server/render.cjs) showed of them. Here the build is a
 * template, with a stand-in rendering where a test needs one; the browser journeys run the real one
 * (test/e2e/server-render.test.ts).
 */

let server: TestServer;
afterEach(() => server.close());

const entities: Record<string, string> = { '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };
/** The page's initial-data meta tag, read back as the page reads it. */
const initialDataOf = (body: string): Record<string, unknown> => {
  const content = /<meta name="initial-data" content="([^"]*)"/.exec(body)?.[1];
  if (content === undefined) throw new Error('the page carries no initial data');
  return JSON.parse(content.replace(/&(quot|#39|lt|gt|amp);/g, (entity) => entities[entity]!)) as Record<string, unknown>;
};

/** A stand-in for the build's rendering, written into the test's build folder before the server first renders. */
function standInRendering(distDir: string, source: string) {
  const file = path.join(distDir, SERVER_RENDER_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, source);
}

describe("the checkout page carries the bill data's answer and the user", () => {
  test('a guest: the bill data exactly as object-info answers it, and no user', async () => {
    server = await startServer();
    const client = new Client(server.app);
    const page = await client.get('/pay/demo-anon');
    expect(page.statusCode).toBe(200);
    const fetched = await client.get('/ajax/object-info/demo-anon');
    expect(initialDataOf(page.body)).toEqual({ bill: { status: 200, body: fetched.json() }, user: null, rendered: null });
  });

  test('signed in: the user as get-user gives it', async () => {
    server = await startServer();
    const client = await openPage(server.app, 'demo-reg');
    await client.post('/ajax/realty/login/', { login: demoAccount.phone, phone: demoAccount.phone, password: demoAccount.password, captcha: '' }, { form: true });
    const token = (await client.post('/ajax/realty/checkUser/')).json().json.token as string;
    const user = (await client.post('/ajax/get-user', { token })).json().user as unknown;
    const page = await client.get('/pay/demo-reg');
    expect(initialDataOf(page.body).user).toEqual(user);
  });

  test("with the provider's calls on another host, the user is the page's to ask", async () => {
    server = await startServer({ providerBase: 'https://provider.example' });
    const page = await new Client(server.app).get('/pay/demo-anon');
    expect(initialDataOf(page.body)).not.toHaveProperty('user');
    expect(initialDataOf(page.body).bill).toMatchObject({ status: 200 });
  });

  test("a paid bill carries object-info's 409 with its receipt; a retry the route would refuse is left to the page", async () => {
    server = await startServer();
    const client = new Client(server.app);
    const paid = initialDataOf((await client.get('/pay/demo-paid')).body).bill as { status: number; body: Record<string, unknown> };
    expect(paid).toEqual({ status: 409, body: (await client.get('/ajax/object-info/demo-paid')).json() });
    expect(paid.body).toMatchObject({ paid: true });
    expect(initialDataOf((await client.get(`/pay/demo-anon?retry=${'x'.repeat(201)}`)).body)).toEqual({ rendered: null });
    expect(initialDataOf((await client.get('/pay/demo-anon?retry=a&retry=b')).body)).toEqual({ rendered: null });
  });
});

describe('the result page carries the first status poll', () => {
  test("a paid order's status and receipt, as the poll answers this session", async () => {
    server = await startServer();
    const orderId = await payBillByCard(server.app, 'demo-anon', TEST_CARDS.pays);
    const client = await openPage(server.app);
    const page = await client.get(`/success?billOid=demo-anon&orderId=${orderId}`);
    const polled = await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-anon' });
    expect(initialDataOf(page.body)).toEqual({ status: { status: 200, body: polled.json() }, rendered: null });
    expect(polled.json()).toMatchObject({ status: 'success', receipt: { orderId } });
  });

  test('no bill, no order of the bill, or ids that cannot be one', async () => {
    server = await startServer();
    const client = new Client(server.app);
    expect(initialDataOf((await client.get('/fail?billOid=no-such-bill&orderId=order-1')).body).status).toEqual({
      status: 404,
      body: { success: false, error: 'Документ не найден' },
    });
    expect(initialDataOf((await client.get('/fail?billOid=demo-anon&orderId=order-1')).body).status).toEqual({ status: 200, body: { success: true, status: null } });
    expect(initialDataOf((await client.get('/fail?billOid=demo-anon&orderId=a%20b')).body)).toEqual({ rendered: null });
    expect(initialDataOf((await client.get('/fail')).body)).toEqual({ rendered: null });
  });
});

describe("the server's rendering", () => {
  test('its markup goes into the mount point, its view into the data, its title into the page', async () => {
    server = await startServer();
    standInRendering(
      server.distDir,
      `exports.renderCheckout = async ({ billLink, initial }) => ({ markup: '<p class="x">' + billLink + ' ' + initial.bill.status + '</p>', view: 'guest', title: 'Свой заголовок' });
       exports.renderResult = async ({ orderId }) => ({ markup: '<p>' + orderId + '</p>', view: 'result:declined', title: null });`,
    );
    const page = await new Client(server.app).get('/pay/demo-anon');
    expect(page.body).toContain('<div id="root"><p class="x">demo-anon 200</p></div>');
    expect(page.body).toContain('<title>Свой заголовок</title>');
    expect(initialDataOf(page.body).rendered).toBe('guest');
    const result = await new Client(server.app).get('/fail?billOid=demo-anon&orderId=order-1');
    expect(result.body).toContain('<div id="result"><p>order-1</p></div>');
    expect(initialDataOf(result.body).rendered).toBe('result:declined');
  });

  test('a rendering that fails leaves the page to render on its own: never an error page for a head start', async () => {
    server = await startServer();
    standInRendering(server.distDir, `exports.renderCheckout = async () => { throw new Error('broken'); };`);
    const page = await new Client(server.app).get('/pay/demo-anon');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root"></div>');
    expect(initialDataOf(page.body)).toMatchObject({ bill: { status: 200 }, rendered: null });
  });

  test('is never served as an asset', async () => {
    server = await startServer();
    standInRendering(server.distDir, 'exports.renderCheckout = async () => null;');
    expect((await server.app.inject({ method: 'GET', url: `/assets/${SERVER_RENDER_FILE}` })).statusCode).toBe(404);
  });
});
