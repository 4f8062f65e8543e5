import { DEV_CAPTCHA_TOKEN, SITEVERIFY_URL, createCaptchaVerifier } from '../../server/accounts/captcha';
import { CSP_REPORT_MAX_BYTES, CSP_REPORT_MAX_DEPTH, CspReports } from '../../server/platform/cspReports';
import { openPage, snapshot, startServer, type TestServer } from './helpers';
import { postRoutes } from './postRoutes';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

describe('CSRF', () => {
  test.each(postRoutes.map((route) => [route.url, route] as const))('POST %s without the session token: 403, nothing changed', async (_url, route) => {
    const client = await openPage(server.app, 'demo-points');
    const before = await snapshot(server.app);
    for (const csrf of ['', 'forged-token', client.csrf.slice(0, -1) + (client.csrf.endsWith('A') ? 'B' : 'A')]) {
      const forged = { ...client, csrf } as typeof client;
      Object.setPrototypeOf(forged, Object.getPrototypeOf(client));
      const answer = await forged.post(route.url, route.body, { form: route.form });
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ success: false, error: expect.any(String) });
    }
    // No session at all (a cross-site form with a stolen token but no cookie) is refused too.
    const noCookie = await server.app.inject({ method: 'POST', url: route.url, headers: { 'x-csrf-token': client.csrf }, payload: route.body ?? {} });
    expect(noCookie.statusCode).toBe(403);
    expect(await snapshot(server.app)).toBe(before);
  });

  test("one session's token does not open another session", async () => {
    const alice = await openPage(server.app);
    const bob = await openPage(server.app);
    bob.csrf = alice.csrf;
    expect((await bob.post('/ajax/logout', {})).statusCode).toBe(403);
  });
});

describe('security headers and cookies', () => {
  test('CSP without inline script, frame-ancestors none, reports; nosniff; session cookie HttpOnly + SameSite=Lax', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/pay/demo-anon' });
    const csp = page.headers['content-security-policy'] as string;
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    expect(directives['script-src']).toContain("'self'");
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
    expect(directives['script-src']).not.toContain("'unsafe-eval'");
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['report-uri']).toEqual(['/csp-report']);
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const sid = page.cookies.find((c) => c.name === 'sid')!;
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(sid.secure).toBeFalsy();
    // JSON answers are never documents: a policy that forbids everything, never cached (a payment status must not
    // be answered from a cache), and none of the document-only headers.
    const api = await server.app.inject({ method: 'GET', url: '/ajax/object-info/demo-anon' });
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers['x-frame-options']).toBe('DENY');
    expect(api.headers['cache-control']).toBe('no-store');
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(api.headers['referrer-policy']).toBeUndefined();
    const poll = await (await openPage(server.app, 'demo-anon')).post('/api/getResult/', { transactionID: 'no-such-order', billOID: 'demo-anon' });
    expect(poll.headers['cache-control']).toBe('no-store');
  });

  test('the session cookie is Secure under https, and the widget host joins the CSP outside local', async () => {
    const https = await startServer({ publicUrl: 'https://pay.example.ru', environment: 'production', widgetOrigin: 'https://widget.bank.example/sdk' });
    const page = await https.app.inject({ method: 'GET', url: '/pay/demo-anon' });
    expect(page.cookies.find((c) => c.name === 'sid')!.secure).toBe(true);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const api = await https.app.inject({ method: 'GET', url: '/ajax/object-info/demo-anon' });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toMatch(/script-src 'self' [^;]*https:\/\/widget\.bank\.example/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/widget\.bank\.example/);
    await https.close();
  });

  test('errors carry no stack traces', async () => {
    const client = await openPage(server.app);
    const bad = await client.post('/api/getPaymentUrl/', '{"objectOID":');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(Object.keys(bad.json()).sort()).toEqual(['error', 'success']);
  });
});

describe('CSP reports', () => {
  test('accepts application/csp-report and application/reports+json without CSRF, counted in memory', async () => {
    const before = await snapshot(server.app);
    const legacy = await server.app.inject({
      method: 'POST',
      url: '/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({ 'csp-report': { 'document-uri': 'http://localhost:3000/pay/demo-anon', 'violated-directive': 'script-src' } }),
    });
    expect(legacy.statusCode).toBe(204);
    const modern = await server.app.inject({
      method: 'POST',
      url: '/csp-report',
      headers: { 'content-type': 'application/reports+json' },
      payload: JSON.stringify([{ type: 'csp-violation', body: { effectiveDirective: 'img-src' } }, { type: 'csp-violation', body: {} }]),
    });
    expect(modern.statusCode).toBe(204);
    const malformed = await server.app.inject({ method: 'POST', url: '/csp-report', headers: { 'content-type': 'application/csp-report' }, payload: '{nope' });
    expect(malformed.statusCode).toBe(400);

    const seen = await server.app.inject({ method: 'GET', url: '/sandbox/csp-reports' });
    expect(seen.json().count).toBe(3);
    expect(seen.json().reports[2]).toEqual({ 'csp-report': expect.objectContaining({ 'violated-directive': 'script-src' }) });
    expect(await snapshot(server.app)).toBe(before);
  });
});

describe('CSP reports that cannot be kept', () => {
  const report = (payload: string, type = 'application/csp-report') =>
    server.app.inject({ method: 'POST', url: '/csp-report', headers: { 'content-type': type }, payload });
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  test('a report nested too deep is refused with 400 and the list still answers', async () => {
    const deep = await report(nested(5000));
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toEqual({ success: false, error: expect.any(String) });
    expect((await report(`{"csp-report":${nested(CSP_REPORT_MAX_DEPTH)}}`)).statusCode).toBe(400);
    expect((await report(`{"csp-report":${nested(CSP_REPORT_MAX_DEPTH - 1)}}`, 'application/reports+json')).statusCode).toBe(204);
    const seen = await server.app.inject({ method: 'GET', url: '/sandbox/csp-reports' });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().count).toBe(1);
  });

  test('a report too large is refused with 413', async () => {
    const large = await report(JSON.stringify({ 'csp-report': { 'script-sample': 'x'.repeat(CSP_REPORT_MAX_BYTES) } }));
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ success: false, error: 'Отчет CSP слишком велик' });
    expect((await server.app.inject({ method: 'GET', url: '/sandbox/csp-reports' })).json().count).toBe(0);
  });

  test('only what serialises back is kept', () => {
    const reports = new CspReports();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    reports.add(cyclic);
    reports.add({ big: BigInt(1) });
    reports.add({ fine: true });
    expect(reports.count).toBe(1);
    expect(JSON.parse(JSON.stringify(reports.recent))).toEqual([{ fine: true }]);
  });
});

describe('captcha verifier', () => {
  const base = { hcaptchaSecret: null, hcaptchaSiteKey: null, sandbox: true, captchaFetch: jest.fn<ReturnType<typeof fetch>, Parameters<typeof fetch>>() };

  test('the dev verifier accepts only the stand-in token, and only with the sandbox on', async () => {
    const dev = createCaptchaVerifier(base);
    expect(await dev(DEV_CAPTCHA_TOKEN, '127.0.0.1')).toBe(true);
    for (const token of ['', null, undefined, 'x', DEV_CAPTCHA_TOKEN + ' ', DEV_CAPTCHA_TOKEN.toUpperCase()]) expect(await dev(token, '127.0.0.1')).toBe(false);
    expect(await createCaptchaVerifier({ ...base, sandbox: false })(DEV_CAPTCHA_TOKEN, '127.0.0.1')).toBe(false);
    expect(base.captchaFetch).not.toHaveBeenCalled();
  });

  test('with HCAPTCHA_SECRET the real siteverify is asked (faked here), and the stand-in token means nothing', async () => {
    const calls: { url: string; form: URLSearchParams }[] = [];
    const fakeFetch = (async (url: string, init?: RequestInit) => {
      const form = new URLSearchParams(String(init!.body));
      calls.push({ url, form });
      return new Response(JSON.stringify({ success: form.get('response') === 'solved-by-a-person' }), { status: 200 });
    }) as typeof fetch;
    const real = createCaptchaVerifier({ ...base, hcaptchaSecret: 'secret-1', hcaptchaSiteKey: 'site-1', captchaFetch: fakeFetch });
    expect(await real('solved-by-a-person', '10.0.0.7')).toBe(true);
    expect(await real(DEV_CAPTCHA_TOKEN, '10.0.0.7')).toBe(false);
    expect(await real('', '10.0.0.7')).toBe(false);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.url).toBe(SITEVERIFY_URL);
    expect(Object.fromEntries(calls[0]!.form)).toEqual({ secret: 'secret-1', response: 'solved-by-a-person', remoteip: '10.0.0.7', sitekey: 'site-1' });

    const failing = createCaptchaVerifier({ ...base, hcaptchaSecret: 's', captchaFetch: (async () => { throw new Error('network down'); }) as typeof fetch });
    expect(await failing('anything', '1.1.1.1')).toBe(false);
    const httpError = createCaptchaVerifier({ ...base, hcaptchaSecret: 's', captchaFetch: (async () => new Response('oops', { status: 500 })) as typeof fetch });
    expect(await httpError('anything', '1.1.1.1')).toBe(false);
  });

  test('the app uses the siteverify verifier end to end when a secret is set', async () => {
    const fakeFetch = (async (_url: string, init?: RequestInit) =>
      new Response(JSON.stringify({ success: new URLSearchParams(String(init!.body)).get('response') === 'human' }))) as typeof fetch;
    const real = await startServer({ hcaptchaSecret: 'secret', captchaFetch: fakeFetch });
    const client = await openPage(real.app);
    const login = (captcha: string) =>
      client.post('/ajax/realty/login/', { login: '79990000002', phone: '79990000002', password: 'demo-pass', captcha }, { form: true });
    await client.post('/ajax/realty/login/', { login: '79990000002', phone: '79990000002', password: 'wrong', captcha: '' }, { form: true });
    expect((await login(DEV_CAPTCHA_TOKEN)).statusCode).toBe(400);
    expect((await login('human')).statusCode).toBe(200);
    await real.close();
  });
});

describe('bank widget origins in the CSP', () => {
  test('local needs none (the sandbox is this origin); other environments allow both bank host families', () => {
    const { widgetOrigins } = jest.requireActual<typeof import('../../server/platform/csp')>('../../server/platform/csp');
    const { BANK_HOSTS } = jest.requireActual<typeof import('../../src/widget/hosts')>('../../src/widget/hosts');
    expect(widgetOrigins({ environment: 'local', widgetOrigin: null })).toEqual([]);
    expect(widgetOrigins({ environment: 'production', widgetOrigin: null })).toEqual([BANK_HOSTS.bankAppPay.production, BANK_HOSTS.general.production]);
    expect(widgetOrigins({ environment: 'test', widgetOrigin: 'https://extra.example/path, https://more.example' })).toEqual([
      BANK_HOSTS.bankAppPay.test,
      BANK_HOSTS.general.test,
      'https://extra.example',
      'https://more.example',
    ]);
  });
});

describe('CSRF tokens remembered in memory', () => {
  test("a sign-in renames the session: the old id's POSTs are refused at once, the new id's pass", async () => {
    const { startServer, openPage } = jest.requireActual<typeof import('./helpers')>('./helpers');
    const { demoAccount } = jest.requireActual<typeof import('../../server/sandbox/demoBills')>('../../server/sandbox/demoBills');
    const local = await startServer();
    try {
      const client = await openPage(local.app, 'demo-reg');
      const oldCookie = client.cookie;
      // A POST with the old id puts its token in memory.
      expect((await client.post('/api/getResult/', { transactionID: 'none', billOID: 'demo-reg' })).statusCode).toBe(200);

      const login = await client.post('/ajax/realty/login/', { login: demoAccount.phone, phone: demoAccount.phone, password: demoAccount.password, captcha: '' }, { form: true });
      expect(login.statusCode).toBe(200);
      expect(client.cookie).not.toBe(oldCookie);

      const withOldId = await local.app.inject({
        method: 'POST',
        url: '/api/getResult/',
        headers: { cookie: oldCookie, 'x-csrf-token': client.csrf, 'content-type': 'application/json' },
        payload: JSON.stringify({ transactionID: 'none', billOID: 'demo-reg' }),
      });
      expect(withOldId.statusCode).toBe(403);
      expect((await client.post('/api/getResult/', { transactionID: 'none', billOID: 'demo-reg' })).statusCode).toBe(200);
    } finally {
      await local.close();
    }
  });
});
