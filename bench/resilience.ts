import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildApp } from '../server/app';
import { DEV_CAPTCHA_TOKEN } from '../server/captcha';
import { CODE_RULES } from '../server/codes';
import { seedDemo } from '../server/demoBills';
import { SESSION_LIFE } from '../server/session';
import { fuzzRoutes, randomBody } from '../test/server/fuzzBodies';
import { startCheckoutServer, type ChildServer } from './processes';
import { freshBill, openTab, payBody, startCardPayment, type Tab } from './session';

/**
 * 10,000 wrong codes against one phone, by an attacker who solves every captcha and asks for a new code whenever
 * the rules allow (the approach of test/server/bruteforce.test.ts): an in-process server on a fake clock, so the
 * waits the server demands pass instantly.
 */
export async function otpBruteForce(distDir: string, guesses = 10_000): Promise<{ sent: number; accepted: number; evaluated: number; codesSent: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-otp-'));
  let t = Date.UTC(2026, 0, 15, 9);
  const app = await buildApp({ databasePath: path.join(dir, 'db.sqlite'), distDir, logger: false, rateLimitPerMinute: 0, now: () => t, passwordCost: 1024 });
  await seedDemo(app.store, 1024);
  const phone = '79990004455';
  try {
    let cookie = '';
    let csrf = '';
    // After a wait of 30 idle minutes or more the session has ended, so the attacker opens the page again.
    const openPage = async () => {
      const page = await app.inject({ method: 'GET', url: '/pay/demo-anon' });
      cookie = `sid=${page.cookies.find((c) => c.name === 'sid')!.value}`;
      csrf = /<meta name="?csrf-token"? content="([^"]+)"/.exec(page.body)![1]!;
    };
    await openPage();
    const post = (url: string, body: unknown) =>
      app.inject({ method: 'POST', url, headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const lastCode = () => /Код подтверждения: (\d{4})/.exec(app.store.outboxOf(phone, 1)[0]?.text ?? '')?.[1] ?? null;

    let liveCode: string | null = null;
    let tries = 0;
    let accepted = 0;
    let evaluated = 0;
    let codesSent = 0;
    for (let guess = 0; guess < guesses; guess++) {
      if (!liveCode || tries >= CODE_RULES.wrongTriesPerCode) {
        const sent = await post('/api/send-sms/', { phone, objectOID: 'demo-anon', captchaVerified: true, custNo: null, usePoints: false, captcha: DEV_CAPTCHA_TOKEN, purpose: 'register' });
        if (sent.statusCode === 200) {
          codesSent++;
          liveCode = lastCode();
          tries = 0;
        } else {
          const wait = ((sent.json() as { secondsLeft?: number }).secondsLeft ?? 60) * 1000;
          t += wait;
          if (wait >= SESSION_LIFE.idleMs) await openPage();
        }
      }
      const wrong = String((Number(liveCode ?? '0') + 1 + (guess % 9_999)) % 10_000).padStart(4, '0');
      const answer = await post('/api/check-code/', { code: wrong, phone, custNo: null, usePoints: false, purpose: 'register', captcha: DEV_CAPTCHA_TOKEN });
      if (answer.statusCode === 200) accepted++;
      else if (answer.statusCode === 400) {
        evaluated++;
        tries++;
      } else liveCode = null;
    }
    return { sent: guesses, accepted, evaluated, codesSent };
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Random bodies over real HTTP to every POST route; counts the 500s. */
export async function fuzzBodies(server: ChildServer, count = 1200): Promise<{ sent: number; status500: number }> {
  const tab = await openTab(server.base, 'demo-points');
  let status500 = 0;
  for (let i = 0; i < count; i++) {
    const route = fuzzRoutes[i % fuzzRoutes.length]!;
    const { payload, contentType } = randomBody(route.template);
    const headers: Record<string, string> = { cookie: tab.headers.cookie!, 'x-csrf-token': tab.headers['x-csrf-token']! };
    if (contentType) headers['content-type'] = contentType;
    const answer = await fetch(`${server.base}${route.url}`, { method: 'POST', headers, body: payload, redirect: 'manual' });
    await answer.arrayBuffer();
    if (answer.status >= 500) status500++;
  }
  return { sent: count, status500 };
}

const attemptsOf = (databasePath: string, billOid: string) => {
  const db = new Database(databasePath, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM payment_attempts WHERE bill_oid = ?').get(billOid) as { n: number }).n;
  } finally {
    db.close();
  }
};

/**
 * Two server processes on one database (as a scaled deployment would run), 20 simultaneous Pay presses for one
 * bill from one tab, half through each process; then a SIGKILL during pending payments, a restart on the same
 * database, and each payment completed through the sandbox acquirer's card form.
 */
export async function concurrencyAndCrash(distDir: string): Promise<{
  concurrentPayAttempts: { requests: number; attemptsCreated: number };
  crashRecovery: { pending: number; paymentsLost: number };
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-crash-'));
  const databasePath = path.join(dir, 'db.sqlite');
  const servers: ChildServer[] = [];
  try {
    const first = await startCheckoutServer(databasePath, distDir);
    servers.push(first);
    const second = await startCheckoutServer(databasePath, distDir);
    servers.push(second);

    const tab = await openTab(first.base);
    const viaSecond: Tab = { ...tab, base: second.base, post: (url, body) => fetch(`${second.base}${url}`, { method: 'POST', headers: tab.headers, body: JSON.stringify(body) }) };
    const bill = await freshBill(first.base);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? viaSecond : tab).post('/api/getPaymentUrl/', payBody(bill))));
    if (answers.some((a) => a.status !== 200)) throw new Error(`concurrent Pay answered ${answers.map((a) => a.status).join(',')}`);
    const concurrentPayAttempts = { requests: answers.length, attemptsCreated: attemptsOf(databasePath, bill) };

    const pending: { bill: string; orderId: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const oid = await freshBill(first.base);
      pending.push({ bill: oid, orderId: await startCardPayment(tab, oid) });
    }
    await second.stop();
    await first.stop('SIGKILL');
    const restarted = await startCheckoutServer(databasePath, distDir);
    servers.push(restarted);

    let paymentsLost = 0;
    for (const { bill: oid, orderId } of pending) {
      const paid = await fetch(`${restarted.base}/sandbox/acquirer/${orderId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'card=4111+1111+1111+1111&expiry=12%2F30&cvc=123',
        redirect: 'manual',
      });
      const result = await fetch(`${restarted.base}/api/getResult/`, { method: 'POST', headers: tab.headers, body: JSON.stringify({ transactionID: orderId, billOID: oid }) });
      const status = ((await result.json()) as { status?: string }).status;
      if (paid.status !== 303 || status !== 'success') paymentsLost++;
    }
    return { concurrentPayAttempts, crashRecovery: { pending: pending.length, paymentsLost } };
  } finally {
    for (const server of servers) await server.stop('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
