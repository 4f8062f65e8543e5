import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { BUNDLED_LIST_FILE, checkBankList, createSbpBankList, type SbpBankOut } from '../../../server/sbpBanks/list';
import { encodingFor, isFresh, REFRESH_EVERY_MS } from '../../../server/sbpBanks/routes';
import { initialsOf } from '../../../src/services/sbpBanks';
import { startServer, type TestServer } from '../helpers';

/** The shipped snapshot: NSPK's list of 2026-04-29, 192 banks. */
const snapshot = () => JSON.parse(fs.readFileSync(BUNDLED_LIST_FILE, 'utf8')) as { updatedAt: string; banks: Record<string, unknown>[] };

/** The snapshot a day later with Сбербанк renamed: a good download that differs from what is served. */
const renamed = () => {
  const list = snapshot();
  list.updatedAt = '2026-04-30T04:00:00.000Z';
  list.banks[0] = { ...list.banks[0], name: 'Сбербанк России' };
  return list;
};

const json = (body: unknown, status = 200) => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake fetch answering each call from the queue (the last answer repeats); it records the addresses asked. */
function fakeFetch(...answers: (() => Response | Promise<Response>)[]) {
  const calls: string[] = [];
  const fn = (async (input: string | URL | Request) => {
    calls.push(String(input instanceof Request ? input.url : input));
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (!answer) throw new Error('no answer scripted');
    return answer();
  }) as typeof fetch;
  return { fn, calls };
}

const quietLog = () => ({ warn: jest.fn(), info: jest.fn() });
const banksOf = (body: string) => (JSON.parse(body) as { banks: SbpBankOut[] }).banks;

let server: TestServer | null = null;
afterEach(async () => {
  jest.useRealTimers();
  await server?.close();
  server = null;
});

/** Waits until the server answers a list other than `etag` (the refresh runs in the background). */
async function nextList(app: TestServer['app'], etag: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await app.inject({ method: 'GET', url: '/api/sbp-banks' });
    if (response.headers.etag !== etag) return response;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the list was never replaced');
}

describe('GET /api/sbp-banks', () => {
  test('serves the shipped list: every bank with its scheme, Android package, https web client and logo path', async () => {
    server = await startServer();
    const response = await server.app.inject({ method: 'GET', url: '/api/sbp-banks' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(response.body) as { updatedAt: string; banks: SbpBankOut[] };
    expect(body.updatedAt).toBe('2026-04-29T04:16:10.452Z');
    expect(body.banks).toHaveLength(192);
    expect(body.banks[0]).toEqual({
      id: '100000000111',
      name: 'Сбербанк',
      schema: 'bank100000000111',
      package: 'ru.sberbankmobile',
      webClientUrl: null,
      logo: '/api/sbp-banks/logos/100000000111',
    });
    const byName = (name: string) => body.banks.find((bank) => bank.name === name)!;
    expect(byName('Т-Банк').webClientUrl).toBe('https://www.tinkoff.ru/mybank/payments/qr-pay');
    // NSPK's '' and null both become null; a web client over plain http is not offered.
    expect(byName('Металлинвестбанк').package).toBeNull();
    expect(body.banks.filter((bank) => bank.webClientUrl?.startsWith('http:'))).toEqual([]);
    expect(body.banks.filter((bank) => bank.webClientUrl).length).toBe(53);
  });

  test('is cacheable by everybody, unlike the rest of the API, with an ETag; the same ETag answers 304 with no body', async () => {
    server = await startServer();
    const first = await server.app.inject({ method: 'GET', url: '/api/sbp-banks' });
    expect(first.headers['cache-control']).toBe('public, max-age=3600, stale-while-revalidate=86400');
    expect(first.headers.vary).toBe('accept-encoding');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/);

    const again = await server.app.inject({ method: 'GET', url: '/api/sbp-banks', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=3600, stale-while-revalidate=86400');

    const other = await server.app.inject({ method: 'GET', url: '/api/sbp-banks', headers: { 'if-none-match': 'W/"another-list"' } });
    expect(other.statusCode).toBe(200);
    expect(banksOf(other.body)).toHaveLength(192);
    // Other API answers stay uncacheable.
    const poll = await server.app.inject({ method: 'POST', url: '/api/getResult/', payload: {} });
    expect(poll.headers['cache-control']).toBe('no-store');
  });

  test('is sent compressed when the client accepts it: brotli first, then gzip', async () => {
    server = await startServer();
    const plain = await server.app.inject({ method: 'GET', url: '/api/sbp-banks' });
    const br = await server.app.inject({ method: 'GET', url: '/api/sbp-banks', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    const gzip = await server.app.inject({ method: 'GET', url: '/api/sbp-banks', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  test('If-None-Match and Accept-Encoding are read as HTTP says', () => {
    expect(isFresh('W/"a", W/"b"', 'W/"b"')).toBe(true);
    expect(isFresh('"b"', 'W/"b"')).toBe(true);
    expect(isFresh('*', 'W/"b"')).toBe(true);
    expect(isFresh('W/"a"', 'W/"b"')).toBe(false);
    expect(isFresh(undefined, 'W/"b"')).toBe(false);
    expect(encodingFor('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(encodingFor('br;q=0.5, gzip')).toBe('br');
    expect(encodingFor('identity')).toBeNull();
    expect(encodingFor('*')).toBe('br');
    expect(encodingFor(undefined)).toBeNull();
  });
});

describe('refreshing from SBP_BANKS_URL', () => {
  const SOURCE = 'https://lists.example/sbp-banks.json';

  test('at start the server downloads the list and serves it, with a new ETag', async () => {
    const fetch = fakeFetch(() => json(renamed()));
    server = await startServer({ sbpBanksUrl: SOURCE, sbpFetch: fetch.fn });
    const shipped = createSbpBankList({ sourceUrl: null, fetch: fetch.fn, log: quietLog() }).current.etag;
    const response = await nextList(server.app, shipped);
    expect(fetch.calls).toEqual([SOURCE]);
    expect(banksOf(response.body)[0]!.name).toBe('Сбербанк России');
    expect((JSON.parse(response.body) as { updatedAt: string }).updatedAt).toBe('2026-04-30T04:00:00.000Z');
    // The page's old copy is stale now.
    const old = await server.app.inject({ method: 'GET', url: '/api/sbp-banks', headers: { 'if-none-match': shipped } });
    expect(old.statusCode).toBe(200);
  });

  test('then once a day; a failed day keeps the last good list', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const third = renamed();
    third.banks[1] = { ...third.banks[1], name: 'Т-Банк (новое имя)' };
    const fetch = fakeFetch(
      () => json(renamed()),
      () => {
        throw new TypeError('fetch failed');
      },
      () => json(third),
    );
    server = await startServer({ sbpBanksUrl: SOURCE, sbpFetch: fetch.fn });
    const shipped = createSbpBankList({ sourceUrl: null, fetch: fetch.fn, log: quietLog() }).current.etag;
    const day1 = await nextList(server.app, shipped);
    expect(fetch.calls).toHaveLength(1);

    await jest.advanceTimersByTimeAsync(REFRESH_EVERY_MS - 1000);
    expect(fetch.calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(fetch.calls).toHaveLength(2);
    const afterFailure = await server.app.inject({ method: 'GET', url: '/api/sbp-banks' });
    expect(afterFailure.headers.etag).toBe(day1.headers.etag);
    expect(banksOf(afterFailure.body)[0]!.name).toBe('Сбербанк России');

    await jest.advanceTimersByTimeAsync(REFRESH_EVERY_MS);
    expect(fetch.calls).toHaveLength(3);
    const day3 = await nextList(server.app, String(day1.headers.etag));
    expect(banksOf(day3.body)[1]!.name).toBe('Т-Банк (новое имя)');
  });

  test('without SBP_BANKS_URL nothing is downloaded', async () => {
    const fetch = fakeFetch(() => json(renamed()));
    server = await startServer({ sbpFetch: fetch.fn });
    await server.app.inject({ method: 'GET', url: '/api/sbp-banks' });
    expect(fetch.calls).toEqual([]);
  });
});

describe('the schema check refuses a bad download and keeps the last good list', () => {
  const SOURCE = 'https://lists.example/sbp-banks.json';
  const withBank = (change: Record<string, unknown>) => {
    const list = renamed();
    list.banks[5] = { ...list.banks[5], ...change };
    return list;
  };

  test.each([
    ['not JSON', () => new Response('<html>maintenance</html>', { status: 200 }), 'refused'],
    ['an HTTP error', () => json({ error: 'down' }, 503), 'failed'],
    ['a network failure', () => Promise.reject(new TypeError('fetch failed')), 'failed'],
    ['an empty list', () => json({ updatedAt: '2026-04-30T00:00:00Z', banks: [] }), 'refused'],
    ['no banks array', () => json({ version: '1.0', dictionary: [] }), 'refused'],
    ['a truncated list (a third of the banks)', () => json({ ...renamed(), banks: renamed().banks.slice(0, 64) }), 'refused'],
    ['a scheme that is not bank<id>', () => json(withBank({ schema: 'javascript' })), 'refused'],
    ['an intent scheme', () => json(withBank({ schema: 'intent' })), 'refused'],
    ['a bank without a name', () => json(withBank({ name: '  ' })), 'refused'],
    ['a repeated id', () => json(withBank({ id: '100000000111' })), 'refused'],
    ['an id that is not 12 digits', () => json(withBank({ id: '1000' })), 'refused'],
    ['a package with a space', () => json(withBank({ package: 'ru.bank app' })), 'refused'],
    ['a web client that is not a URL', () => json(withBank({ webClientUrl: 'javascript:alert(1)' })), 'refused'],
    ['a missing web-client flag', () => json(withBank({ isWebClientActive: 'yes' })), 'refused'],
    ['a date that is not one', () => json({ ...renamed(), updatedAt: 'yesterday' }), 'refused'],
  ] as const)('%s', async (_name, answer, outcome) => {
    const log = quietLog();
    const list = createSbpBankList({ sourceUrl: SOURCE, fetch: fakeFetch(answer).fn, log });
    const before = list.current;
    await expect(list.refresh()).resolves.toBe(outcome);
    expect(list.current).toBe(before);
    expect(list.current.count).toBe(192);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]![1]).toMatch(/last good list is kept/);
  });

  test('a good download replaces the list; the same list again changes nothing', async () => {
    const log = quietLog();
    const list = createSbpBankList({ sourceUrl: SOURCE, fetch: fakeFetch(() => json(renamed())).fn, log });
    await expect(list.refresh()).resolves.toBe('updated');
    const etag = list.current.etag;
    await expect(list.refresh()).resolves.toBe('unchanged');
    expect(list.current.etag).toBe(etag);
    expect(log.warn).not.toHaveBeenCalled();
  });

  test('the shipped snapshot passes its own check', () => {
    const checked = checkBankList(snapshot());
    expect('error' in checked ? checked.error : checked.banks.length).toBe(192);
  });

  test('a broken shipped snapshot stops the server at start instead of serving nothing', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sbp-')), 'banks.json');
    fs.writeFileSync(file, JSON.stringify({ updatedAt: '2026-04-29T00:00:00Z', banks: [] }));
    expect(() => createSbpBankList({ sourceUrl: null, fetch: fakeFetch().fn, log: quietLog(), bundledFile: file })).toThrow(/bundled SBP bank list is invalid: the list is empty/);
  });
});

describe('GET /api/sbp-banks/logos/:id', () => {
  /** A deployment's server: no sandbox, a real acquirer and SMS provider (addresses nothing answers, never called here). */
  const SANDBOX_OFF = {
    sandbox: false,
    acquirerUrl: 'http://127.0.0.1:9/payment/rest/',
    acquirerToken: 'production-token',
    acquirerCallbackKey: 'production-callback-key',
    smsruApiId: 'production-api-id',
    smsruUrl: 'http://127.0.0.1:9/',
  } as const;
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const image = (type = 'image/png', bytes: Buffer = png) => () => new Response(new Uint8Array(bytes), { status: 200, headers: { 'content-type': type } });

  test("is the bank's logo from NSPK, fetched once and kept for a day", async () => {
    const fetch = fakeFetch(image());
    server = await startServer({ ...SANDBOX_OFF, sbpFetch: fetch.fn });
    const first = await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/100000000111' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['cache-control']).toBe('public, max-age=86400');
    expect(first.rawPayload.equals(png)).toBe(true);
    expect(fetch.calls).toEqual(['https://qr.nspk.ru/proxyapp/logo/bank100000000111.png']);
    await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/100000000111' });
    expect(fetch.calls).toHaveLength(1);
    server.clock.advance(24 * 60 * 60 * 1000);
    await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/100000000111' });
    expect(fetch.calls).toHaveLength(2);
  });

  test('a logo NSPK cannot give now is a 404 (the page shows initials), not asked again for ten minutes', async () => {
    const fetch = fakeFetch(() => Promise.reject(new TypeError('getaddrinfo ENOTFOUND qr.nspk.ru')));
    server = await startServer({ ...SANDBOX_OFF, sbpFetch: fetch.fn });
    const response = await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/100000000004' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, error: 'Логотип банка не найден' });
    await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/100000000004' });
    expect(fetch.calls).toHaveLength(1);
    server.clock.advance(10 * 60 * 1000);
    await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/100000000004' });
    expect(fetch.calls).toHaveLength(2);
  });

  test.each([
    ['an SVG (a document that could carry script)', image('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))],
    ['HTML', image('text/html', Buffer.from('<p>oops</p>'))],
    ['an oversized image', image('image/png', Buffer.alloc(200 * 1024))],
    ['an HTTP error', () => new Response('', { status: 500, headers: { 'content-type': 'image/png' } })],
  ])('%s is refused', async (_name, answer) => {
    server = await startServer({ ...SANDBOX_OFF, sbpFetch: fakeFetch(answer).fn });
    expect((await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/100000000111' })).statusCode).toBe(404);
  });

  test('an unknown bank or a malformed id is refused without asking anybody', async () => {
    const fetch = fakeFetch(image());
    server = await startServer({ ...SANDBOX_OFF, sbpFetch: fetch.fn });
    expect((await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/999999999999' })).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/..%2Fetc' })).statusCode).toBe(400);
    expect(fetch.calls).toEqual([]);
  });

  test("a downloaded list cannot send the server to fetch from another host: logos come from NSPK's or the list's own", async () => {
    const list = renamed();
    list.banks[0] = { ...list.banks[0], logo: 'https://internal.example/admin.png' };
    list.banks[1] = { ...list.banks[1], logo: 'https://lists.example/logos/t.png' };
    const fetch = fakeFetch(() => json(list), image());
    const banks = createSbpBankList({ sourceUrl: 'https://lists.example/sbp-banks.json', fetch: fetch.fn, log: quietLog() });
    await banks.refresh();
    await expect(banks.logo('100000000111')).resolves.toBeNull();
    await expect(banks.logo('100000000004')).resolves.toEqual({ type: 'image/png', bytes: png });
    expect(fetch.calls).toEqual(['https://lists.example/sbp-banks.json', 'https://lists.example/logos/t.png']);
  });

  test("with the sandbox on, every bank's logo is the sandbox's stand-in, drawn here: nothing asked of NSPK, none missing", async () => {
    const fetch = fakeFetch(image());
    server = await startServer({ sbpFetch: fetch.fn });
    const banks = banksOf((await server.app.inject({ method: 'GET', url: '/api/sbp-banks' })).body);
    expect(banks.length).toBeGreaterThan(100);
    for (const bank of banks) {
      const response = await server.app.inject({ method: 'GET', url: bank.logo! });
      expect([bank.name, response.statusCode, response.headers['content-type']]).toEqual([bank.name, 200, 'image/svg+xml']);
      expect(response.body).toContain(`>${initialsOf(bank.name)}</text>`);
      // Opened on its own, the drawing is inert: the API's policy forbids everything.
      expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    }
    expect(banks.find((bank) => bank.id === '110000000005')?.logo).toBe('/api/sbp-banks/logos/110000000005');
    expect((await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/110000000005' })).body).toContain('>ВТБ</text>');
    expect(fetch.calls).toEqual([]);
  });

  test('with the sandbox off, no stand-in is served: a logo NSPK cannot give is a 404 (the page shows initials)', async () => {
    server = await startServer({ ...SANDBOX_OFF, sbpFetch: fakeFetch(() => Promise.reject(new TypeError('fetch failed'))).fn });
    const response = await server.app.inject({ method: 'GET', url: '/api/sbp-banks/logos/110000000005' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('the logo fetch against a real HTTP server', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const LOGO_PATH = '/proxyapp/logo/bank100000000111.png';
  let local: http.Server;
  let port: number;
  /** What the local server was asked for, and how the answer to each request ended. */
  let asked: string[];
  let answer: (request: http.IncomingMessage, response: http.ServerResponse) => void;
  /** Bytes of the logo's body the server's code took from the wire. */
  let bytesRead: number;

  beforeEach(async () => {
    asked = [];
    bytesRead = 0;
    local = http.createServer((request, response) => {
      asked.push(request.url!);
      if (request.url === '/internal') return void response.writeHead(200, { 'content-type': 'image/png' }).end(png);
      answer(request, response);
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    port = (local.address() as AddressInfo).port;
  });
  afterEach(async () => {
    local.closeAllConnections();
    await new Promise((resolve) => local.close(resolve));
  });

  /**
   * The real fetch, with NSPK's https address sent to the local server instead (it stands in for TLS only): the
   * server's own options (redirect, signal) go through unchanged. It counts the body bytes the caller reads.
   */
  const toLocal = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input).replace('https://qr.nspk.ru/', `http://127.0.0.1:${port}/`);
    const response = await fetch(url, init);
    if (!response.body) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytesRead += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, headers: response.headers });
  }) as typeof fetch;

  const logo = () => createSbpBankList({ sourceUrl: null, fetch: toLocal, log: quietLog() }).logo('100000000111');

  test('an image from the allowed host is served', async () => {
    answer = (_request, response) => void response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    await expect(logo()).resolves.toEqual({ type: 'image/png', bytes: png });
    expect(asked).toEqual([LOGO_PATH]);
  });

  test('a 302 to 127.0.0.1 is not followed: nothing is served and the redirect target is never asked', async () => {
    answer = (_request, response) => void response.writeHead(302, { location: `http://127.0.0.1:${port}/internal` }).end();
    await expect(logo()).resolves.toBeNull();
    expect(asked).toEqual([LOGO_PATH]);
  });

  test('an answer that is not an image (text/html) is refused', async () => {
    answer = (_request, response) => void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>login</p>');
    await expect(logo()).resolves.toBeNull();
  });

  test('an oversized image is given up once past the cap, not read to its end', async () => {
    const chunk = Buffer.alloc(16 * 1024, 1);
    const total = 4 * 1024 * 1024;
    answer = (_request, response) => {
      // No Content-Length: the size shows only while the body streams in.
      response.writeHead(200, { 'content-type': 'image/png' });
      let written = 0;
      const more = () => {
        while (written < total && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        if (written >= total) response.end();
      };
      more();
    };
    await expect(logo()).resolves.toBeNull();
    expect(bytesRead).toBeGreaterThan(128 * 1024);
    expect(bytesRead).toBeLessThan(512 * 1024);
  });

  test('an image whose declared length is past the cap is not read at all', async () => {
    const big = Buffer.alloc(200 * 1024, 1);
    answer = (_request, response) => void response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(big.length) }).end(big);
    await expect(logo()).resolves.toBeNull();
    expect(bytesRead).toBe(0);
  });
});
