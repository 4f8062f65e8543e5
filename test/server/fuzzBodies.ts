/*
 * Random request bodies for every POST route, from a seeded PRNG so that a failing body can be replayed from the
 * seed. Used by the fuzz test (test/server/input.test.ts) and by the benchmark's fuzz figure (bench/resilience.ts).
 * Every template is refused somewhere by the server, so no variation is a legitimate request that may change rows.
 */

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

export const SEED = 20260115;
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
 * that no random variation of them is a legitimate request that may change rows. The logouts are not here: any body
 * they accept ends the session and starts another (a change by design); input.test.ts refuses their bad bodies.
 */
export const fuzzRoutes: { url: string; form?: boolean; template: Record<string, unknown> }[] = [
  { url: '/ajax/check-email/', template: { email: 'payer@example.ru' } },
  { url: '/ajax/realty/freeCallLock/', form: true, template: { phone: '7999000000' } },
  { url: '/ajax/realty/freeCall/', form: true, template: { phone: '79990000001' } },
  { url: '/ajax/realty/checkUser/', template: {} },
  { url: '/ajax/get-user', template: { token: 'no-such-token' } },
  { url: '/ajax/registration/', template: { surname: 'Иванов', name: 'Иван', patronymic: 'Иванович', patronimyc: 'Иванович', phone: '79991112233', privacy: true, personalDataAgreement: true, captcha: null } },
  { url: '/ajax/sendSMS/', template: { login: '79990000002', captcha: null } },
  { url: '/ajax/realty/login/', form: true, template: { login: '7999000000', phone: '7999000000', password: 'demo-pass', captcha: '' } },
  // Refused three ways (an unknown bill, a bad e-mail, a guest naming an account), so no few mutations make it a payment.
  { url: '/api/getPaymentUrl/', template: { pointsSum: null, objectOID: 'no-such-bill', cardTypeOID: 'demo-anon.ALL', email: 'not-an-email', userOID: 'user-demo-reg', manager_id: null } },
  { url: '/api/offerText/', template: { type: 'aggregator', objectOID: 'demo-offer', cardTypeOID: 'demo-offer.ALL' } },
  { url: '/api/getResult/', template: { transactionID: 'nope', billOID: 'demo-anon' } },
  // A points code's phone is the bill's (the body's is ignored): an unknown bill and a bad phone refuse it twice over.
  { url: '/api/send-sms/', template: { phone: '7999000000', objectOID: 'no-such-bill', captchaVerified: false, custNo: 'C-1001', usePoints: true, captcha: null, purpose: 'use-points' } },
  { url: '/api/check-code/', template: { code: '12a4', phone: '79990000001', custNo: 'C-1001', usePoints: true, purpose: 'use-points' } },
  { url: '/sandbox/bills', template: { from: 'no-such-demo' } },
  { url: '/sandbox/free-call', template: { phone: '7999000000' } },
  { url: '/sandbox/sbp/no-such-order', template: { outcome: 'pay' } },
  { url: '/sandbox/acquirer/no-such-order', form: true, template: { card: '4111111111111111', expiry: '12/30', cvc: '123' } },
  { url: '/sandbox/sberpay/no-such-order/confirm', template: { outcome: 'pay' } },
];

export function randomBody(template: Record<string, unknown>): { payload: string; contentType: string | null; json?: unknown } {
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

