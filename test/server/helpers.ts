import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { DEV_CAPTCHA_TOKEN } from '../../server/accounts/captcha';
import type { CodePurpose } from '../../server/accounts/tables';
import { buildApp } from '../../server/app';
import { SANDBOX_SMSRU, type AppOptions } from '../../server/config';
import { migrations } from '../../server/migrations';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { seedDemo } from '../../server/sandbox/demoBills';
import { fakeTextsOf } from '../../server/sandbox/smsruQueries';
import { openStore, type RootStore } from '../../server/store/store';
import { killChildServers } from '../support/childServer';
import { injectFetch } from '../support/injectFetch';
import { freshDatabase, seededDatabase, START, TEST_PASSWORD_COST, testEngine, type TestDatabase } from '../support/testDatabase';
import { billByOid } from '../../server/billing/queries';

export { START, TEST_PASSWORD_COST };

export interface FakeClock {
  now: () => number;
  advance: (ms: number) => void;
}

export function fakeClock(start = START): FakeClock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** A temp folder with a tiny built page carrying the template's placeholders. */
export function tempDirs() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-test-'));
  const distDir = path.join(dir, 'dist');
  fs.mkdirSync(distDir);
  fs.writeFileSync(
    path.join(distDir, 'index.html'),
    '<!doctype html><html><head><meta name="csrf-token" content="__CSRF_TOKEN__"><meta name="config" content="__CONFIG__"><meta name="initial-data" content="__INITIAL_DATA__"><title>__TITLE__</title></head><body>__MOUNT__</body></html>',
  );
  return { dir, distDir, databasePath: path.join(dir, 'checkout.sqlite') };
}

/**
 * A temp folder and a database of the file's engine; `remove` drops both. `seeded`: a copy of the run's template (the
 * demo seed as seeded at START), else an empty database.
 */
async function freshPlace(seeded: boolean) {
  const { dir, distDir } = tempDirs();
  const fresh: TestDatabase = seeded ? await seededDatabase(dir) : await freshDatabase(dir);
  const remove = async () => {
    await fresh.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { dir, distDir, fresh, remove };
}

/**
 * For tests that start servers as processes of their own (test/support/childServer.ts): a temp folder with the tiny
 * built page and a fresh database of the file's engine, made before the tests of the calling block; after them the
 * processes are killed and both removed. Read its fields inside the tests.
 */
export function processPlace(): { readonly dir: string; readonly distDir: string; readonly database: TestDatabase } {
  const place = {} as { dir: string; distDir: string; database: TestDatabase };
  beforeAll(async () => {
    ({ dir: place.dir, distDir: place.distDir } = tempDirs());
    place.database = await freshDatabase(place.dir);
  });
  afterAll(async () => {
    await killChildServers();
    await place.database?.drop();
    if (place.dir) fs.rmSync(place.dir, { recursive: true, force: true });
  });
  return place;
}

/** Where a test server's data lives: spread into buildApp's options to open a second server on the same database. */
export type DatabaseOptions = Pick<AppOptions, 'databaseUrl' | 'databasePath'>;

export interface TestServer {
  app: FastifyInstance;
  clock: FakeClock;
  dir: string;
  database: DatabaseOptions;
  distDir: string;
  /**
   * Waits until the sandbox acquirer holds back an answer of the order past the client's time-out (a fault that loses
   * an answer, or 'status-slow'), then runs that time-out out at once: the server gives up on the call as it would after
   * acquirerTimeoutMs, and the fake lets go of it. A test of a lost answer waits for the event, not for the time-out.
   */
  timeOutHeldAnswer: (orderNumber: string) => Promise<void>;
  /** `pending`, with every answer of the order that the fake holds back meanwhile timed out at once (timeOutHeldAnswer). */
  timeOutHeldAnswers: <T>(orderNumber: string, pending: Promise<T>) => Promise<T>;
  close: () => Promise<void>;
}

/** The merchant API's key of a test server (the sandbox's development key). */
export const merchantKey = (app: FastifyInstance): string => app.merchant.devApiKey!;

let idempotencyCounter = 0;
/** A new Idempotency-Key. */
export const newIdempotencyKey = () => `test-key-${++idempotencyCounter}-${Math.random().toString(36).slice(2)}`;

/** A merchant API call with the server's key (and a new Idempotency-Key on a POST unless one is given). */
export function merchantCall(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url: `/merchant/v1${url}`,
    headers: {
      authorization: `Bearer ${merchantKey(app)}`,
      ...(method === 'POST' ? { 'idempotency-key': newIdempotencyKey() } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
}

/** The link id a payUrl ends with: the page's only name for its bill. */
export const linkOf = (payUrl: string): string => new URL(payUrl).pathname.split('/').pop()!;

/** The link id of the bill with this objectOID, from the store. */
export async function linkFor(app: FastifyInstance, objectOID: string): Promise<string> {
  const bill = await billByOid(app.store, objectOID);
  if (!bill) throw new Error(`no bill ${objectOID}`);
  return bill.link_id;
}

/**
 * A payer pays a bill by card as the page does, naming it by its link id (a demo bill's is its objectOID): the payment
 * URL (with the receipt e-mail), then the sandbox RBS fake's card form with a test card (its callback's effects
 * awaited). Answers the attempt's order id.
 */
export async function payBillByCard(app: FastifyInstance, link: string, card: string, email: string | null = 'payer@example.ru') {
  const client = await openPage(app, link);
  const started = await client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: link, cardTypeOID: `${link}.ALL`, email, userOID: null, manager_id: null });
  if (started.statusCode !== 200) throw new Error(`getPaymentUrl answered ${started.statusCode} ${started.body}`);
  const orderId = started.json().info.orderId as string;
  const paid = await payByCard(app, started.json().info.formUrl as string, card);
  if (paid.statusCode !== 303) throw new Error(`the acquirer's form answered ${paid.statusCode}`);
  return orderId;
}

/**
 * A seeded app on a fresh database of the file's engine (a SQLite file in a temp folder, or a PostgreSQL database of
 * its own) and a fake clock; the global rate limit is off unless a test turns it on.
 */
export async function startServer(overrides: Partial<AppOptions> = {}, clock = fakeClock()): Promise<TestServer> {
  // The template's seed is the one this server would make: its own database, seeded on the test clock at its start.
  const { dir, distDir, fresh, remove } = await freshPlace(!overrides.now && !overrides.databaseUrl && !overrides.databasePath && clock.now() === START);
  const database: DatabaseOptions = { databaseUrl: overrides.databaseUrl ?? fresh.databaseUrl, databasePath: overrides.databasePath ?? fresh.databasePath };
  const built: { app?: FastifyInstance } = {};
  const acquirer = injectFetch(() => built.app!);
  const app = await buildApp({
    // The sandbox's RBS and SMS.ru fakes are this app: the adapters reach them (and they call back) through inject.
    acquirerFetch: acquirer,
    smsruFetch: injectFetch(() => built.app!),
    // Tests run the sweeper themselves (app.gateway.sweep()) when they mean to.
    sweepEveryMs: 0,
    ...database,
    // A seeded PostgreSQL copy's connections, kept across the file's servers on it (test/support/testDatabase.ts).
    borrowedDatabasePool: overrides.databaseUrl ? undefined : fresh.pool,
    distDir,
    logger: false,
    now: clock.now,
    passwordCost: TEST_PASSWORD_COST,
    rateLimitPerMinute: 0,
    // Tests drive webhook deliveries and the expiry sweep by hand (app.merchant.worker), on the fake clock.
    webhookWorker: false,
    // And the SMS outbox's retries and delivery reads (app.texts.runOnce()).
    smsWorker: false,
    ...overrides,
  });
  built.app = app;
  await seedDemo(app.store, TEST_PASSWORD_COST);
  /** Runs out the time-out of a call of the order whose answer the fake holds back, if there is one, and lets it go. */
  const timeOutOneHeld = (orderNumber: string): boolean => {
    const held = [...app.rbsFake!.heldCalls].find(([, hold]) => hold.orderNumber === orderNumber);
    if (!held) return false;
    const [call, hold] = held;
    if (!acquirer.runOut(call)) throw new Error(`the held call ${call} of order ${orderNumber} is not this server's acquirer fetch`);
    hold.release();
    return true;
  };
  return {
    app,
    clock,
    dir,
    database,
    distDir,
    timeOutHeldAnswer: async (orderNumber) => {
      while (!timeOutOneHeld(orderNumber)) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    timeOutHeldAnswers: async (orderNumber, pending) => {
      let settled = false;
      const result = pending.finally(() => (settled = true));
      while (!settled) {
        timeOutOneHeld(orderNumber);
        await Promise.race([result.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10))]);
      }
      return result;
    },
    close: async () => {
      await app.close();
      await remove();
    },
  };
}

/**
 * Another server process on a test server's database, its outside parties the first one's sandbox fakes (as over the
 * network), its background work driven by hand like the first's.
 */
export const secondProcess = (server: TestServer, overrides: Partial<AppOptions> = {}) =>
  buildApp({
    ...server.database,
    distDir: server.distDir,
    logger: false,
    now: server.clock.now,
    rateLimitPerMinute: 0,
    passwordCost: TEST_PASSWORD_COST,
    sweepEveryMs: 0,
    webhookWorker: false,
    smsWorker: false,
    acquirerFetch: injectFetch(() => server.app),
    smsruFetch: injectFetch(() => server.app),
    ...overrides,
  });

export interface TestStore {
  store: RootStore;
  clock: FakeClock;
  close: () => Promise<void>;
}

/**
 * A seeded store without a server, on a fresh database of the file's engine, for the tests of a domain function: the
 * real queries and transactions, no HTTP.
 */
export async function startStore(clock = fakeClock()): Promise<TestStore> {
  const { fresh, remove } = await freshPlace(clock.now() === START);
  const store = await openStore({ databaseUrl: fresh.databaseUrl, databasePath: fresh.databasePath, now: clock.now, migrations });
  await seedDemo(store, TEST_PASSWORD_COST);
  const close = async () => {
    await store.close();
    await remove();
  };
  return { store, clock, close };
}

type Body = Record<string, unknown> | unknown[] | string | null | undefined;

/** A browser tab: the session cookie and the CSRF token from the page's meta tag, kept up to date. */
export class Client {
  cookie = '';
  csrf = '';
  /** The client's network address, as the server sees it. */
  address = '127.0.0.1';
  constructor(readonly app: FastifyInstance) {}

  private remember(response: LightMyRequestResponse) {
    const sid = response.cookies.find((c) => c.name === 'sid');
    if (sid) this.cookie = `sid=${sid.value}`;
  }

  async get(url: string) {
    const response = await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookie }, remoteAddress: this.address });
    this.remember(response);
    return response;
  }

  /**
   * Opens (or reloads) a bill's checkout page: the session cookie, new if the old one ended, and the CSRF token from
   * the page's meta tag.
   */
  async open(objectOID = 'demo-anon') {
    const page = await this.get(`/pay/${objectOID}`);
    // The built template may leave the attribute name unquoted.
    const token = /<meta name=(?:"csrf-token"|csrf-token) content="([^"]+)"/.exec(page.body)?.[1];
    if (page.statusCode !== 200 || !token) throw new Error(`page did not open: ${page.statusCode} ${page.body}`);
    this.csrf = token;
    return this;
  }

  /** POST as the page does: JSON (or form-encoded with `form`), the cookie, the CSRF and XMLHttpRequest headers. */
  async post(url: string, body?: Body, options: { form?: boolean; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { cookie: this.cookie, 'x-csrf-token': this.csrf, 'x-requested-with': 'XMLHttpRequest', ...options.headers };
    let payload: string | undefined;
    if (options.form && body && typeof body === 'object' && !Array.isArray(body)) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
    } else if (typeof body === 'string') {
      headers['content-type'] ??= 'application/json';
      payload = body;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await this.app.inject({ method: 'POST', url, headers, remoteAddress: this.address, ...(payload !== undefined ? { payload } : {}) });
    this.remember(response);
    return response;
  }
}

/** Opens the checkout page of a bill as a browser would: a session cookie and the CSRF token from the meta tag. */
export async function openPage(app: FastifyInstance, objectOID = 'demo-anon'): Promise<Client> {
  return new Client(app).open(objectOID);
}

/** A new test server and the checkout page of a bill opened on it: where most HTTP tests start. */
export async function serverWithPage(objectOID = 'demo-anon', overrides: Partial<AppOptions> = {}): Promise<{ server: TestServer; client: Client }> {
  const server = await startServer(overrides);
  return { server, client: await openPage(server.app, objectOID) };
}

/** The texts the sandbox's SMS.ru fake delivered to a phone (what `/sandbox/sms` shows), the newest first. */
export const textsTo = (app: FastifyInstance, phone: string, limit = 20) => fakeTextsOf(app.store, phone, limit);

/** The newest code the sandbox's SMS.ru fake delivered to a phone. */
export async function lastCode(app: FastifyInstance, phone: string): Promise<string> {
  const text = (await textsTo(app, phone, 1))[0]?.text ?? '';
  const code = /Код подтверждения: (\d{4})/.exec(text)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${phone}: ${text}`);
  return code;
}

export async function lastPassword(app: FastifyInstance, phone: string): Promise<string> {
  const text = (await textsTo(app, phone, 1))[0]?.text ?? '';
  const password = /пароль: (\S+)$/.exec(text)?.[1];
  if (!password) throw new Error(`no password in the outbox for ${phone}: ${text}`);
  return password;
}

/**
 * Sends a code and enters it, as the code-check flow does; answers the check-code response. A points code names no
 * phone, as the page sends it (the server takes the bill's): `phone` is then where the test reads the code.
 */
export async function provePhone(client: Client, phone: string, purpose: CodePurpose, objectOID = 'demo-anon', captcha: string | null = null) {
  const named = purpose === 'use-points' ? null : phone;
  const sent = await client.post('/api/send-sms/', {
    phone: named,
    objectOID,
    captchaVerified: false,
    custNo: null,
    usePoints: purpose === 'use-points',
    captcha,
    purpose,
  });
  if (sent.statusCode !== 200) throw new Error(`send-sms failed: ${sent.statusCode} ${sent.body}`);
  const code = await lastCode(client.app, phone);
  return client.post('/api/check-code/', { code, phone: named, objectOID, custNo: null, usePoints: purpose === 'use-points', purpose });
}

// Test files take the app from here, so the ESM shims above are in place before Fastify's plugins load.
export { DEV_CAPTCHA_TOKEN, buildApp, testEngine };

/** Every row of every table (in a stable order on either engine), to prove that a request changed nothing. */
export async function snapshot(app: FastifyInstance): Promise<string> {
  const db = app.store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const tables = (await db.introspection.getTables()).map((table) => table.name).sort();
  const dump: [string, string[]][] = [];
  for (const name of tables) dump.push([name, (await db.selectFrom(name).selectAll().execute()).map((row) => JSON.stringify(row)).sort()]);
  return JSON.stringify(dump);
}

/** How many rows of a table match the given column values (all rows without any). */
export async function countRows(app: FastifyInstance, table: string, where: Record<string, string | number | null> = {}): Promise<number> {
  const db = app.store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  let query = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  for (const [column, value] of Object.entries(where)) query = value === null ? query.where(column, 'is', null) : query.where(column, '=', value);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** A different 4-digit code. */
export const otherCode = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0');

/**
 * Pays (or is refused) on the RBS fake's card form at a payment answer's formUrl, then waits for what follows: the fake's
 * signed callback and the reconciling it starts (the product learns the outcome through the protocol only).
 */
export async function payByCard(app: FastifyInstance, formUrl: string, card: string = TEST_CARDS.pays) {
  const answer = await app.inject({
    method: 'POST',
    url: new URL(formUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ card, expiry: '12/30', cvc: '123' }).toString(),
  });
  await app.background.idle();
  return answer;
}

/** The fake bank app behind a fast-payment QR's payload: pays or declines, then waits for the callback's effects. */
export async function payBySbp(app: FastifyInstance, payload: string, outcome: 'pay' | 'decline' = 'pay') {
  const answer = await app.inject({ method: 'POST', url: new URL(payload).pathname, payload: { outcome } });
  await app.background.idle();
  return answer;
}

/** Switches a fault of the sandbox's RBS fake on or off (for every order, or one orderNumber). */
export async function rbsFault(app: FastifyInstance, fault: string, on = true, orderNumber?: string) {
  const answer = await app.inject({ method: 'POST', url: '/sandbox/rbs/faults', payload: { fault, on, ...(orderNumber ? { orderNumber } : {}) } });
  if (answer.statusCode !== 200) throw new Error(`fault switch refused: ${answer.body}`);
}

/**
 * Options of a server with the sandbox off whose acquirer and SMS provider are another test server's RBS and SMS.ru
 * fakes: only the ACQUIRER_* and SMSRU_* settings point it there, as a deployment points it at a bank and a provider.
 */
export async function providersAt(other: TestServer): Promise<Partial<AppOptions>> {
  return {
    sandbox: false,
    acquirerUrl: 'http://localhost:3000/sandbox/rbs/payment/rest/',
    acquirerUserName: 'sandbox-shop',
    acquirerPassword: 'sandbox-password',
    acquirerCallbackKey: await other.app.callbackKey(),
    acquirerFetch: injectFetch(() => other.app),
    smsruApiId: SANDBOX_SMSRU.apiId,
    smsruUrl: `http://localhost:3000${SANDBOX_SMSRU.path}`,
    smsruFetch: injectFetch(() => other.app),
  };
}

/** Switches a fault of the sandbox's SMS.ru fake on or off (for every phone, or one). */
export async function smsFault(app: FastifyInstance, fault: string, on = true, phone?: string) {
  const answer = await app.inject({ method: 'POST', url: '/sandbox/smsru/faults', payload: { fault, on, ...(phone ? { phone } : {}) } });
  if (answer.statusCode !== 200) throw new Error(`fault switch refused: ${answer.body}`);
}
