import { CODE_RULES } from '../../../server/accounts/codes';
import { demoAccount } from '../../../server/sandbox/demoBills';
import { countRows, DEV_CAPTCHA_TOKEN, lastPassword, openPage, provePhone, serverWithPage, startServer, type Client, type TestServer } from '../helpers';
import { accountByPhone } from '../../../server/accounts/accountQueries';
import { sessionById } from '../../../server/accounts/sessionQueries';

let server: TestServer;
let client: Client;

beforeEach(async () => ({ server, client } = await serverWithPage('demo-reg')));
afterEach(() => server.close());

const NEW_PHONE = '79995556677';
const registration = (extra: Record<string, unknown> = {}) => ({
  surname: 'Орлова', name: 'Ольга', patronymic: 'Петровна', patronimyc: 'Петровна', phone: NEW_PHONE, privacy: true, personalDataAgreement: true, captcha: null, ...extra,
});
const login = (c: Client, phone: string, password: string, captcha = '') =>
  c.post('/ajax/realty/login/', { login: phone, phone, password, captcha }, { form: true });

async function signedInUser(c: Client) {
  const check = await c.post('/ajax/realty/checkUser/');
  const token = check.json().json.token as string;
  return c.post('/ajax/get-user', { token });
}

describe('registration', () => {
  test('needs the phone proven by a register code, creates the account and sends its password by SMS', async () => {
    const unproven = await client.post('/ajax/registration/', registration());
    expect(unproven.statusCode).toBe(400);
    expect(await accountByPhone(server.app.store, NEW_PHONE)).toBeUndefined();

    expect((await provePhone(client, NEW_PHONE, 'register')).statusCode).toBe(200);
    const registered = await client.post('/ajax/registration/', registration());
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toEqual({ success: true, json: { show_captcha: false } });

    const account = (await accountByPhone(server.app.store, NEW_PHONE))!;
    expect(account).toMatchObject({ surname: 'Орлова', name: 'Ольга', patronymic: 'Петровна' });
    expect(account.password_hash).toMatch(/^scrypt\$/);
    const password = await lastPassword(server.app, NEW_PHONE);
    expect(password).toHaveLength(10);
    expect(account.password_hash).not.toContain(password);

    expect((await login(client, NEW_PHONE, password)).json()).toEqual({ success: true });
    expect((await signedInUser(client)).json().user).toMatchObject({ phone: NEW_PHONE, name: 'Ольга Орлова', email: null, picture: null });
  });

  test('the verification is used up, and an existing phone is refused', async () => {
    await provePhone(client, NEW_PHONE, 'register');
    expect((await client.post('/ajax/registration/', registration())).statusCode).toBe(200);
    expect((await client.post('/ajax/registration/', registration())).statusCode).toBe(400);

    server.clock.advance(CODE_RULES.resendAfterMs);
    await provePhone(client, NEW_PHONE, 'register', 'demo-anon', DEV_CAPTCHA_TOKEN);
    const again = await client.post('/ajax/registration/', registration());
    expect(again.statusCode).toBe(409);
  });

  test('accepts the misspelt patronymic alone and refuses without privacy consent', async () => {
    await provePhone(client, NEW_PHONE, 'register');
    const { patronymic: _unused, ...aliasOnly } = registration();
    expect((await client.post('/ajax/registration/', { ...aliasOnly, privacy: false })).statusCode).toBe(400);
    expect((await client.post('/ajax/registration/', { ...aliasOnly, personalDataAgreement: false })).statusCode).toBe(400);
    const { patronimyc: _gone, ...neither } = aliasOnly as Record<string, unknown>;
    expect((await client.post('/ajax/registration/', neither)).statusCode).toBe(400);
    expect((await client.post('/ajax/registration/', aliasOnly)).statusCode).toBe(200);
    expect((await accountByPhone(server.app.store, NEW_PHONE))!.patronymic).toBe('Петровна');
  });

  test('a code proven in another session does not count', async () => {
    await provePhone(client, NEW_PHONE, 'register');
    const stranger = await openPage(server.app);
    expect((await stranger.post('/ajax/registration/', registration())).statusCode).toBe(400);
  });
});

describe('login, checkUser, get-user, logout', () => {
  test('the demo account signs in under a new session id with the same CSRF token', async () => {
    const before = client.cookie;
    const ok = await login(client, demoAccount.phone, demoAccount.password);
    expect(ok.statusCode).toBe(200);
    expect(client.cookie).not.toBe(before);
    const user = await signedInUser(client);
    expect(user.json()).toEqual({
      success: true,
      user: { email: null, name: 'Анна Смирнова', phone: demoAccount.phone, oid: 'user-demo-reg', picture: null },
    });
    // The old cookie is dead.
    const old = await server.app.inject({ method: 'POST', url: '/ajax/realty/checkUser/', headers: { cookie: before, 'x-csrf-token': client.csrf } });
    expect(old.statusCode).toBe(403);
  });

  test('get-user wants the token of this session', async () => {
    await login(client, demoAccount.phone, demoAccount.password);
    const token = (await client.post('/ajax/realty/checkUser/')).json().json.token;
    expect((await client.post('/ajax/get-user', { token: token + 'x' })).statusCode).toBe(401);
    const other = await openPage(server.app);
    expect((await other.post('/ajax/get-user', { token })).statusCode).toBe(401);
    expect((await client.post('/ajax/get-user', { token })).statusCode).toBe(200);
  });

  test('checkUser without a user answers no token', async () => {
    expect((await client.post('/ajax/realty/checkUser/')).json()).toEqual({ success: false, json: { token: null } });
  });

  test('logout ends the session: a new id, the old one dead, nothing it had proven kept', async () => {
    await login(client, demoAccount.phone, demoAccount.password);
    await provePhone(client, demoAccount.phone, 'forgot-password');
    const signedIn = client.cookie;
    const sessionId = signedIn.replace('sid=', '');
    expect(await countRows(server.app, 'phone_verifications', { session_id: sessionId })).toBe(1);

    expect((await client.post('/ajax/logout', {})).json()).toEqual({ success: true });
    expect(client.cookie).not.toBe(signedIn);
    // The old id opens nothing any more, and its proofs went with it.
    const old = await server.app.inject({ method: 'POST', url: '/ajax/realty/checkUser/', headers: { cookie: signedIn, 'x-csrf-token': client.csrf } });
    expect(old.statusCode).toBe(403);
    expect(await sessionById(server.app.store, sessionId)).toBeUndefined();
    expect(await countRows(server.app, 'phone_verifications', { session_id: sessionId })).toBe(0);
    // The restore that phone proof allowed is no longer possible in the new session.
    expect((await client.post('/ajax/sendSMS/', { login: demoAccount.phone, captcha: DEV_CAPTCHA_TOKEN })).statusCode).toBe(400);
    // The open page goes on with its CSRF token: the provider's logout, which the page calls next, passes.
    expect((await client.post('/ajax/realty/logout/')).statusCode).toBe(200);
  });

  test('both logouts sign out and void the token', async () => {
    for (const [url, body] of [['/ajax/logout', {}], ['/ajax/realty/logout/', undefined]] as const) {
      await login(client, demoAccount.phone, demoAccount.password);
      const token = (await client.post('/ajax/realty/checkUser/')).json().json.token;
      expect((await client.post(url, body)).json()).toEqual({ success: true });
      expect((await client.post('/ajax/get-user', { token })).statusCode).toBe(401);
      expect((await client.post('/ajax/realty/checkUser/')).json().success).toBe(false);
    }
  });

  test('no account enumeration: an unknown phone and a wrong password answer alike', async () => {
    const unknown = await login(client, '79990009988', 'whatever');
    const wrong = await login(client, demoAccount.phone, 'not-the-password');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(unknown.statusCode);
    expect(wrong.json()).toEqual(unknown.json());
    expect(unknown.json()).toMatchObject({ success: false, show_captcha: true });
  });

  test('after a failed login the captcha is demanded for that phone', async () => {
    await login(client, demoAccount.phone, 'nope');
    const noCaptcha = await login(client, demoAccount.phone, demoAccount.password);
    expect(noCaptcha.statusCode).toBe(400);
    expect(noCaptcha.json().show_captcha).toBe(true);
    expect((await login(client, demoAccount.phone, demoAccount.password, 'forged')).statusCode).toBe(400);
    expect((await login(client, demoAccount.phone, demoAccount.password, DEV_CAPTCHA_TOKEN)).statusCode).toBe(200);
  });

  test('the provider calls live under the configured product', async () => {
    const auto = await startServer({ product: 'auto' });
    const c = await openPage(auto.app);
    expect((await c.post('/ajax/auto/checkUser/')).statusCode).toBe(200);
    expect((await c.post('/ajax/realty/checkUser/')).statusCode).toBe(404);
    await auto.close();
  });
});

describe('password restore (sendSMS)', () => {
  test('sends a new password to a proven phone; the old one stops working', async () => {
    expect((await provePhone(client, demoAccount.phone, 'forgot-password')).statusCode).toBe(200);
    const restored = await client.post('/ajax/sendSMS/', { login: demoAccount.phone, captcha: null });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ success: true, json: { show_captcha: false } });
    const password = await lastPassword(server.app, demoAccount.phone);
    expect((await login(client, demoAccount.phone, demoAccount.password)).statusCode).toBe(401);
    expect((await login(client, demoAccount.phone, password, DEV_CAPTCHA_TOKEN)).statusCode).toBe(200);
  });

  test('no account enumeration: unknown and known phones answer alike', async () => {
    const unknownPhone = '79990007766';
    await provePhone(client, demoAccount.phone, 'forgot-password');
    await provePhone(client, unknownPhone, 'forgot-password');
    const known = await client.post('/ajax/sendSMS/', { login: demoAccount.phone, captcha: null });
    const unknown = await client.post('/ajax/sendSMS/', { login: unknownPhone, captcha: null });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    // Unproven, both are refused alike too.
    const a = await client.post('/ajax/sendSMS/', { login: demoAccount.phone, captcha: null });
    const b = await client.post('/ajax/sendSMS/', { login: unknownPhone, captcha: null });
    expect(a.statusCode).toBe(400);
    expect(b.json()).toEqual(a.json());
  });

  test('a register code cannot restore a password', async () => {
    await provePhone(client, demoAccount.phone, 'register');
    const before = (await accountByPhone(server.app.store, demoAccount.phone))!.password_hash;
    expect((await client.post('/ajax/sendSMS/', { login: demoAccount.phone, captcha: null })).statusCode).toBe(400);
    expect((await accountByPhone(server.app.store, demoAccount.phone))!.password_hash).toBe(before);
  });
});

describe('check-email', () => {
  test.each([
    ['payer@example.ru', true],
    ['  payer@example.ru ', true],
    ['иван@почта.рф', true],
    ['payer@example', false],
    ['payer example@x.ru', false],
    ['@example.ru', false],
    ['', false],
    // Invisible formatting characters are in no address.
    ['payer@exam\u200bple.ru', false],
    ['payer@example.ru\u202e', false],
  ])('%p → %p', async (email, ok) => {
    const answer = await client.post('/ajax/check-email/', { email });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().success).toBe(ok);
  });

  test.each(['a\u0000@b.ru', 'payer\u0007@example.ru'])('%p: a control character is no free text at all, refused with the e-mail field\'s words', async (email) => {
    const answer = await client.post('/ajax/check-email/', { email });
    expect([answer.statusCode, answer.json()]).toEqual([400, { success: false, error: 'Введите корректный email' }]);
  });
});
