import Fastify, { type FastifyInstance } from 'fastify';
import { cookieOf, setCookie } from '../../../server/platform/cookies';

/** A bare app whose routes read and set cookies as the checkout's do. */
function cookieApp(): FastifyInstance {
  const app = Fastify();
  app.get('/read', async (request) => ({ sid: cookieOf(request, 'sid') ?? null, manager: cookieOf(request, 'manager_id') ?? null }));
  app.get('/set', async (request, reply) => {
    const { times = '1', secure } = request.query as { times?: string; secure?: string };
    for (let n = 1; n <= Number(times); n++) setCookie(reply, 'sid', `value-${n}`, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure === '1' });
    return {};
  });
  app.get('/set-two', async (_request, reply) => {
    setCookie(reply, 'sid', 'payer', { path: '/', httpOnly: true, sameSite: 'lax', secure: false });
    setCookie(reply, 'desk_sid', 'staff', { path: '/desk', httpOnly: true, sameSite: 'strict', secure: false });
    return {};
  });
  return app;
}

describe('cookies read and set by name', () => {
  let app: FastifyInstance;
  beforeAll(() => (app = cookieApp()));
  afterAll(() => app.close());

  const read = async (cookie?: string) => (await app.inject({ method: 'GET', url: '/read', headers: cookie === undefined ? {} : { cookie } })).json();

  test('the cookie of that name, wherever it stands in the header; none when it did not come', async () => {
    expect(await read('sid=abc')).toEqual({ sid: 'abc', manager: null });
    expect(await read('a=1; sid=abc; manager_id=mgr-7')).toEqual({ sid: 'abc', manager: 'mgr-7' });
    expect(await read()).toEqual({ sid: null, manager: null });
    expect(await read('')).toEqual({ sid: null, manager: null });
  });

  test('a name inside another cookie is not that cookie: only the whole name counts', async () => {
    expect(await read('xsid=forged; other=sid')).toEqual({ sid: null, manager: null });
    expect(await read('xsid=forged; sid=real')).toEqual({ sid: 'real', manager: null });
  });

  test('the first of a cookie sent twice, its percent-encoding and quotes read as the browser meant them', async () => {
    expect(await read('sid=first; sid=second')).toEqual({ sid: 'first', manager: null });
    expect(await read(`manager_id=${encodeURIComponent('"><img src=x>')}`)).toEqual({ sid: null, manager: '"><img src=x>' });
    expect(await read('sid="quoted"')).toEqual({ sid: 'quoted', manager: null });
  });

  test('a cookie set carries its path, HttpOnly and SameSite, and Secure only when asked', async () => {
    const plain = await app.inject({ method: 'GET', url: '/set' });
    expect(plain.headers['set-cookie']).toBe('sid=value-1; Path=/; HttpOnly; SameSite=Lax');
    const secure = await app.inject({ method: 'GET', url: '/set?secure=1' });
    expect(secure.headers['set-cookie']).toBe('sid=value-1; Path=/; HttpOnly; Secure; SameSite=Lax');
  });

  test('set twice in one answer, a cookie is sent once, with the last value; another name is sent beside it', async () => {
    const twice = await app.inject({ method: 'GET', url: '/set?times=2' });
    expect(twice.headers['set-cookie']).toBe('sid=value-2; Path=/; HttpOnly; SameSite=Lax');
    const two = await app.inject({ method: 'GET', url: '/set-two' });
    expect(two.headers['set-cookie']).toEqual(['sid=payer; Path=/; HttpOnly; SameSite=Lax', 'desk_sid=staff; Path=/desk; HttpOnly; SameSite=Strict']);
  });

  test('an answer that sets none sends no Set-Cookie', async () => {
    const response = await app.inject({ method: 'GET', url: '/read', headers: { cookie: 'sid=abc' } });
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});
