/**
 * The desk's door: its sessions apart from the payers', the CSRF token on every POST, the lockout, signing out, the
 * idle time-out, a one-time password, and each role's permissions checked on the server (403).
 */
import { LOCKOUT } from '../../../server/desk/staff';
import { staffByEmail } from '../../../server/desk/staffQueries';
import type { Permission } from '../../../src/desk/services/rules/permissions';
import { startServer, type TestServer } from '../helpers';
import { DeskClient, deskAs } from './deskClient';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const demo = (role: string) => server.app.desk.demoAccounts.find((account) => account.role === role)!;

describe('sessions', () => {
  test('with the sandbox on, one demo account per role, each signing in with the password the banner prints', async () => {
    server = await startServer();
    expect(server.app.desk.demoAccounts.map((account) => [account.role, account.email])).toEqual([
      ['manager', 'manager@demo.local'],
      ['accountant', 'accountant@demo.local'],
      ['admin', 'admin@demo.local'],
    ]);
    for (const account of server.app.desk.demoAccounts) {
      const client = await new DeskClient(server.app).signIn(account.email.toUpperCase(), account.password);
      const me = (await client.get('/session')).json();
      expect(me.staff).toMatchObject({ email: account.email, role: account.role, mustChangePassword: false });
    }
  });

  test('its own cookie, on /desk only, HttpOnly and SameSite=Strict; Secure under https; a new id at sign-in', async () => {
    server = await startServer();
    const first = await server.app.inject({ method: 'GET', url: '/desk/api/session' });
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/^desk_sid=[^;]+; Path=\/desk; HttpOnly; SameSite=Strict$/);
    const client = new DeskClient(server.app);
    await client.get('/session');
    const before = client.cookie;
    await client.post('/sign-in', { email: demo('admin').email, password: demo('admin').password });
    expect(client.cookie).not.toBe(before);
    // The session id from before sign-in opens nothing now.
    const planted = await server.app.inject({ method: 'GET', url: '/desk/api/bills', headers: { cookie: before } });
    expect(planted.statusCode).toBe(401);
    // The payers' session cookie is no desk session.
    const payer = await server.app.inject({ method: 'GET', url: '/pay/demo-anon' });
    expect(String(payer.headers['set-cookie'])).toMatch(/^sid=/);
    const withPayerCookie = await server.app.inject({ method: 'GET', url: '/desk/api/bills', headers: { cookie: String(payer.headers['set-cookie']).split(';')[0]! } });
    expect(withPayerCookie.statusCode).toBe(401);
    await server.close();

    server = await startServer({ publicUrl: 'https://pay.example.ru' });
    const secure = await server.app.inject({ method: 'GET', url: '/desk/api/session' });
    expect(String(secure.headers['set-cookie'])).toMatch(/; Secure; SameSite=Strict$|; SameSite=Strict; Secure$/);
  });

  test('every POST needs its session CSRF token: none, or another session’s, is 403 and changes nothing', async () => {
    server = await startServer();
    const admin = await deskAs(server.app, 'admin');
    const other = await deskAs(server.app, 'admin');
    const body = { purpose: 'Без токена', amount: { value: '10.00', currency: 'RUB' } };
    for (const token of ['', other.csrf]) {
      const refused = await admin.post('/bills', body, { 'idempotency-key': `k-${token.length}`, 'x-csrf-token': token });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('csrf');
    }
    expect((await admin.get('/bills?q=Без')).json().total).toBe(0);
    // The sign-in form posts with its session's token too.
    const anonymous = new DeskClient(server.app);
    await anonymous.get('/session');
    const signIn = await anonymous.post('/sign-in', { email: demo('admin').email, password: demo('admin').password }, { 'x-csrf-token': 'forged' });
    expect(signIn.statusCode).toBe(403);
  });

  test('five wrong passwords lock the account for 15 minutes (the right one is refused meanwhile), then it opens', async () => {
    server = await startServer();
    const client = new DeskClient(server.app);
    await client.get('/session');
    const { email, password } = demo('manager');
    for (let i = 1; i < LOCKOUT.failures; i++) {
      const wrong = await client.post('/sign-in', { email, password: 'not-the-password' });
      expect([wrong.statusCode, wrong.json().error.code]).toEqual([401, 'wrong_credentials']);
    }
    const locked = await client.post('/sign-in', { email, password: 'not-the-password' });
    expect([locked.statusCode, locked.json().error.code]).toEqual([429, 'locked']);
    expect((await client.post('/sign-in', { email, password })).statusCode).toBe(429);
    // An unknown e-mail is refused as a wrong password is: nothing tells which e-mails exist.
    const unknown = await client.post('/sign-in', { email: 'nobody@demo.local', password });
    expect([unknown.statusCode, unknown.json().error.message]).toEqual([401, 'Неверный e-mail или пароль']);
    server.clock.advance(LOCKOUT.lockMs + 1);
    expect((await client.post('/sign-in', { email, password })).statusCode).toBe(200);
    const admin = await deskAs(server.app, 'admin');
    const audit = (await admin.get('/audit')).json().lines.map((line: { action: string; subject: string }) => [line.action, line.subject]);
    expect(audit).toContainEqual(['session.locked', email]);
  });

  test('signing out ends the session: its cookie opens nothing, the page gets a new token', async () => {
    server = await startServer();
    const client = await deskAs(server.app, 'accountant');
    const cookie = client.cookie;
    const out = await client.post('/sign-out');
    expect(out.statusCode).toBe(200);
    expect(out.json().staff).toBeNull();
    const after = await server.app.inject({ method: 'GET', url: '/desk/api/bills', headers: { cookie } });
    expect([after.statusCode, after.json().error.code]).toEqual([401, 'signed_out']);
  });

  test('30 minutes without a request end the session: the next call says so', async () => {
    server = await startServer();
    const client = await deskAs(server.app, 'manager');
    server.clock.advance(29 * 60_000);
    expect((await client.get('/bills')).statusCode).toBe(200);
    server.clock.advance(30 * 60_000);
    const ended = await client.get('/bills');
    expect([ended.statusCode, ended.json().error.code]).toEqual([401, 'session_expired']);
    const session = (await client.get('/session')).json();
    expect(session).toMatchObject({ staff: null });
  });

  test('a one-time password opens nothing but setting one’s own; then the desk opens', async () => {
    server = await startServer();
    const admin = await deskAs(server.app, 'admin');
    const added = await admin.post('/staff', { email: 'New.Accountant@Example.ru', name: 'Анна Новикова', role: 'accountant' });
    expect(added.statusCode).toBe(201);
    const { oneTimePassword } = added.json();
    expect(oneTimePassword).toMatch(/^[A-Za-z0-9]{14}$/);
    const newcomer = await new DeskClient(server.app).signIn('new.accountant@example.ru', oneTimePassword);
    const blocked = await newcomer.get('/bills');
    expect([blocked.statusCode, blocked.json().error.code]).toEqual([403, 'password_change_required']);
    const short = await newcomer.post('/password', { current: oneTimePassword, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields).toEqual([{ field: 'password', message: 'не короче 10 символов' }]);
    const set = await newcomer.post('/password', { current: oneTimePassword, password: 'a-long-new-password' });
    expect(set.statusCode).toBe(200);
    expect(set.json().staff.mustChangePassword).toBe(false);
    expect((await newcomer.get('/bills')).statusCode).toBe(200);
  });

  test('a member of staff switched off is signed out at once; the last admin cannot be', async () => {
    server = await startServer();
    const admin = await deskAs(server.app, 'admin');
    const manager = await deskAs(server.app, 'manager');
    const id = (await staffByEmail(server.app.store, 'manager@demo.local'))!.id;
    expect((await admin.post(`/staff/${id}`, { disabled: true })).statusCode).toBe(200);
    expect((await manager.get('/bills')).statusCode).toBe(401);
    expect((await new DeskClient(server.app).get('/session')).statusCode).toBe(200);
    const selfId = (await staffByEmail(server.app.store, 'admin@demo.local'))!.id;
    const self = await admin.post(`/staff/${selfId}`, { role: 'manager' });
    expect(self.statusCode).toBe(409);
  });
});

describe('roles: what a role may not do, the server refuses with 403', () => {
  const calls: { what: string; permission: Permission; call: (client: DeskClient) => ReturnType<DeskClient['get']> }[] = [
    { what: 'read bills', permission: 'bills.read', call: (c) => c.get('/bills') },
    { what: 'open the new-bill form', permission: 'bills.issue', call: (c) => c.get('/bill-form') },
    { what: 'send a link', permission: 'links.send', call: (c) => c.post('/bills/demo-anon/send-link', { channel: 'sms', to: '79990000009' }) },
    { what: 'refund', permission: 'payments.refund', call: (c) => c.post('/payments/no-such-order/refunds', {}, { 'idempotency-key': 'role-check' }) },
    { what: 'export', permission: 'payments.export', call: (c) => c.get('/export/payments.csv?from=2026-01-15&to=2026-01-15') },
    { what: 'read settings', permission: 'settings.manage', call: (c) => c.get('/settings') },
    { what: 'change settings', permission: 'settings.manage', call: (c) => c.post('/settings', { supportPhone: '+7 (800) 000-00-00' }) },
    { what: 'list staff', permission: 'staff.manage', call: (c) => c.get('/staff') },
    { what: 'read the audit log', permission: 'audit.read', call: (c) => c.get('/audit') },
  ];
  const allowed: Record<string, Permission[]> = {
    manager: ['bills.read', 'bills.issue', 'links.send'],
    accountant: ['bills.read', 'bills.issue', 'links.send', 'payments.refund', 'payments.export'],
    admin: ['bills.read', 'bills.issue', 'links.send', 'payments.refund', 'payments.export', 'settings.manage', 'staff.manage', 'audit.read'],
  };

  test.each(['manager', 'accountant', 'admin'])('%s', async (role) => {
    server = await startServer();
    const client = await deskAs(server.app, role as 'manager');
    const seen = (await client.get('/session')).json().staff.permissions as Permission[];
    for (const { what, permission, call } of calls) {
      const answer = await call(client);
      if (allowed[role]!.includes(permission)) {
        expect([what, answer.statusCode]).not.toEqual([what, 403]);
        expect(seen).toContain(permission);
      } else {
        expect([what, answer.statusCode, answer.json().error.code]).toEqual([what, 403, 'forbidden']);
        expect(seen).not.toContain(permission);
      }
    }
  });

  test('no session: 401 on every route but the session’s own', async () => {
    server = await startServer();
    for (const url of ['/bills', '/figures', '/settings', '/audit']) {
      const answer = await server.app.inject({ method: 'GET', url: `/desk/api${url}` });
      expect([url, answer.statusCode]).toEqual([url, 401]);
    }
  });
});
