import { openPage, postRoutes, snapshot, startServer, type Client, type TestServer } from './helpers';

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startServer();
  client = await openPage(server.app, 'demo-points');
});
afterAll(() => server.close());

/** Routes with a body of named fields, and one field to spoil in each (the first required one). */
const withFields = postRoutes.filter((route) => route.body && Object.keys(route.body).length > 0);

const expectRefused = (answer: { statusCode: number; json: () => { success: boolean; error: unknown } }) => {
  expect(answer.statusCode).toBe(400);
  expect(answer.json().success).toBe(false);
  expect(typeof answer.json().error).toBe('string');
  expect((answer.json().error as string).length).toBeGreaterThan(0);
};

describe.each(withFields.map((route) => [route.url, route] as const))('%s refuses bad input with 400 and a message', (_url, route) => {
  const body = route.body!;
  const field = route.requiredField ?? Object.keys(body)[0]!;

  test('a missing field', async () => {
    const { [field]: _gone, ...rest } = body;
    expectRefused(await client.post(route.url, rest, { form: route.form }));
  });
  test('a wrong type', async () => {
    // Form bodies only carry strings: an array (a repeated key) is their wrong type.
    const wrong = route.form ? { ...body } : { ...body, [field]: { nested: [1, 2, 3] } };
    if (route.form) {
      const payload = `${new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]))}&${field}=again`;
      expectRefused(await client.post(route.url, payload, { headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    } else expectRefused(await client.post(route.url, wrong));
  });
  test('an oversized field', async () => {
    expectRefused(await client.post(route.url, { ...body, [field]: 'я'.repeat(9000) }, { form: route.form }));
  });
  test('an unknown field', async () => {
    expectRefused(await client.post(route.url, { ...body, isAdmin: 'true' }, { form: route.form }));
  });
  test('a malformed body', async () => {
    expectRefused(await client.post(route.url, '{"phone": "7999', { headers: { 'content-type': 'application/json' } }));
  });
  test('an oversized body', async () => {
    expectRefused(await client.post(route.url, JSON.stringify({ ...body, padding: 'x'.repeat(40 * 1024) })));
  });
});

test('calls without a body refuse one', async () => {
  for (const url of ['/ajax/realty/checkUser/', '/ajax/realty/logout/', '/ajax/logout']) {
    expectRefused(await client.post(url, { token: 'x' }));
  }
});

test('GET routes validate their parameters', async () => {
  expectRefused(await client.get('/ajax/object-info/bad%20id%3Cscript%3E'));
  expectRefused(await client.get(`/ajax/object-info/${'a'.repeat(101)}`));
  expectRefused(await client.get('/ajax/object-info/%E0%A4%A'));
  expectRefused(await client.get('/sandbox/sms?phone=not-a-phone'));
  expectRefused(await client.get('/sandbox/sms'));
});

/* ---------------- fuzz ---------------- */

/** A small seeded PRNG (mulberry32), so a failing body can be reproduced from the seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 20260115;
const random = prng(SEED);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

const alphabet = ['a', 'Z', '7', '9', ' ', '"', "'", '<', '>', '&', '%', '\\', '/', '\u0000', '\n', 'я', '€', '😀', '{', '}', '[', ']', ':', ',', '=', '-', '.', '@', '$'];
const randomString = (max = 40) => Array.from({ length: int(max) }, () => pick(alphabet)).join('');

function randomValue(depth = 0): unknown {
  switch (int(depth > 2 ? 7 : 10)) {
    case 0: return randomString();
    case 1: return int(2) ? int(100000) - 50000 : random() * 1e12;
    case 2: return pick([true, false]);
    case 3: return null;
    case 4: return pick(['', '79990000001', '7999000000', '1234', 'demo-points', 'demo-anon', 'use-points', 'aggregator', '4111111111111111', '0', '-1', 'NaN', '__proto__']);
    case 5: return pick([0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 3001]);
    case 6: return randomString(300);
    case 7: return Array.from({ length: int(4) }, () => randomValue(depth + 1));
    case 8: return Object.fromEntries(Array.from({ length: int(4) }, () => [randomString(8), randomValue(depth + 1)]));
    default: return { constructor: { prototype: { polluted: true } }, __proto__: { polluted: true } };
  }
}

/**
 * Templates that the server refuses somewhere (a bad phone, an unknown bill, no proven phone, a wrong code) so
 * that no random variation of them is a legitimate request that may change rows.
 */
const fuzzRoutes: { url: string; form?: boolean; template: Record<string, unknown> }[] = [
  { url: '/ajax/check-email/', template: { email: 'payer@example.ru' } },
  { url: '/ajax/realty/freeCallLock/', form: true, template: { phone: '7999000000' } },
  { url: '/ajax/realty/freeCall/', form: true, template: { phone: '79990000001' } },
  { url: '/ajax/realty/checkUser/', template: {} },
  { url: '/ajax/get-user', template: { token: 'no-such-token' } },
  { url: '/ajax/registration/', template: { surname: 'Иванов', name: 'Иван', patronymic: 'Иванович', patronimyc: 'Иванович', phone: '79991112233', privacy: true, personalDataAgreement: true, captcha: null } },
  { url: '/ajax/sendSMS/', template: { login: '79990000002', captcha: null } },
  { url: '/ajax/realty/login/', form: true, template: { login: '7999000000', phone: '7999000000', password: 'demo-pass', captcha: '' } },
  { url: '/ajax/logout', template: {} },
  { url: '/ajax/realty/logout/', template: {} },
  { url: '/api/getPaymentUrl/', template: { pointsSum: null, objectOID: 'no-such-bill', cardTypeOID: 'demo-anon.ALL', email: null, userOID: null, manager_id: null } },
  { url: '/api/offerText/', template: { type: 'aggregator', objectOID: 'demo-offer', cardTypeOID: 'demo-offer.ALL' } },
  { url: '/api/getResult/', template: { transactionID: 'nope', billOID: 'demo-anon' } },
  { url: '/api/send-sms/', template: { phone: '7999000000', objectOID: 'demo-points', captchaVerified: false, custNo: 'C-1001', usePoints: true, captcha: null, purpose: 'use-points' } },
  { url: '/api/check-code/', template: { code: '12a4', phone: '79990000001', custNo: 'C-1001', usePoints: true, purpose: 'use-points' } },
  { url: '/sandbox/bills', template: { from: 'no-such-demo' } },
  { url: '/sandbox/free-call', template: { phone: '7999000000' } },
  { url: '/sandbox/sbp/no-such-order', template: { outcome: 'pay' } },
  { url: '/sandbox/acquirer/no-such-order', form: true, template: { card: '4111111111111111', expiry: '12/30', cvc: '123' } },
  { url: '/sandbox/sberpay/no-such-order/confirm', template: { outcome: 'pay' } },
];

function randomBody(template: Record<string, unknown>): { payload: string; contentType: string | null; json?: unknown } {
  const kind = int(10);
  if (kind === 0) return { payload: randomString(200), contentType: pick(['application/json', 'application/x-www-form-urlencoded', 'text/plain', null]) };
  if (kind === 1) {
    const text = JSON.stringify(template);
    return { payload: text.slice(0, int(text.length)), contentType: 'application/json' };
  }
  if (kind === 2) return { payload: JSON.stringify(randomValue()), contentType: 'application/json' };
  const body: Record<string, unknown> = { ...template };
  const keys = Object.keys(body);
  const mutations = 1 + int(3);
  for (let i = 0; i < mutations; i++) {
    const action = int(3);
    const key = keys.length ? pick(keys) : randomString(6);
    if (action === 0) body[key] = randomValue();
    else if (action === 1) delete body[key];
    else body[pick([randomString(6), '__proto__', 'constructor', 'isAdmin', 'status'])] = randomValue();
  }
  if (kind === 3) {
    const form = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    return { payload: form.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  return { payload: JSON.stringify(body), contentType: 'application/json', json: body };
}

test(`fuzz (seed ${SEED}): 1,200 random bodies across all routes, no 500, no row changed`, async () => {
  const client = await openPage(server.app, 'demo-points');
  const before = snapshot(server.app);
  const statuses = new Map<number, number>();
  for (let i = 0; i < 1200; i++) {
    const route = fuzzRoutes[i % fuzzRoutes.length]!;
    const { payload, contentType } = randomBody(route.template);
    const headers: Record<string, string> = { cookie: client.cookie, 'x-csrf-token': client.csrf };
    if (contentType) headers['content-type'] = contentType;
    const answer = await server.app.inject({ method: 'POST', url: route.url, headers, payload });
    statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
    if (answer.statusCode >= 500) throw new Error(`500 from ${route.url} with ${contentType}: ${payload}\n${answer.body}`);
    if (answer.statusCode !== 204 && answer.statusCode !== 303 && answer.headers['content-type']?.toString().startsWith('application/json')) {
      expect(answer.body).not.toMatch(/"stack"|at .+\.(ts|js):\d+/);
    }
  }
  expect(snapshot(server.app)).toBe(before);
  // The fuzz mostly hits the schemas, but not only: some bodies pass them and meet the handlers' own refusals.
  expect(statuses.get(400)).toBeGreaterThan(600);
  expect([...statuses.keys()].some((s) => s !== 400)).toBe(true);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}, 30_000);
