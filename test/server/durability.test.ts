import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDirs } from './helpers';

const root = path.resolve(__dirname, '..', '..');
const started: ChildProcess[] = [];

/**
 * Starts `server/main.ts` under tsx on a free port and resolves with its base URL once it says it is running.
 * `node --import tsx` rather than the `tsx` CLI: the CLI runs the server in a child process, so SIGKILL would hit
 * the wrapper and leave the server running.
 */
function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: root, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /Checkout is running on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, base: `http://127.0.0.1:${port}` });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

const killed = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.once('exit', () => resolve())));

afterAll(async () => {
  for (const child of started) {
    if (child.exitCode === null && !child.signalCode) {
      child.kill('SIGKILL');
      await killed(child);
    }
  }
});

test('a pending payment survives SIGKILL: after a restart it completes and is reported', async () => {
  const { dir, distDir, databasePath } = tempDirs();
  const env = { DATABASE_PATH: databasePath, DIST_DIR: distDir };

  const first = await startProcess(env);
  const page = await fetch(`${first.base}/pay/demo-anon`);
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(await page.text())![1]!;
  const headers = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' };

  const started = await fetch(`${first.base}/api/getPaymentUrl/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ pointsSum: null, objectOID: 'demo-anon', cardTypeOID: 'demo-anon.ALL', email: 'payer@example.ru', userOID: null, manager_id: null }),
  });
  expect(started.status).toBe(200);
  const { info } = (await started.json()) as { info: { orderId: string; formUrl: string } };
  // With PORT=0 the return URLs name the port actually bound.
  expect(info.formUrl).toBe(`${first.base.replace('127.0.0.1', 'localhost')}/sandbox/acquirer/${info.orderId}`);

  first.child.kill('SIGKILL');
  await killed(first.child);
  expect(first.child.signalCode).toBe('SIGKILL');

  const second = await startProcess(env);
  const result = () =>
    fetch(`${second.base}/api/getResult/`, { method: 'POST', headers, body: JSON.stringify({ transactionID: info.orderId, billOID: 'demo-anon' }) }).then((r) => r.json());
  // The session and the attempt both survived.
  expect(await result()).toEqual({ success: true, status: 'created', objectOID: 'demo-anon' });

  const form = await fetch(`${second.base}/sandbox/acquirer/${info.orderId}`);
  expect(form.status).toBe(200);
  const paid = await fetch(`${second.base}/sandbox/acquirer/${info.orderId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'card=4111+1111+1111+1111&expiry=12%2F30&cvc=123',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toContain(`/success?orderId=${info.orderId}&billOid=demo-anon`);
  expect(await result()).toEqual({ success: true, status: 'success', objectOID: 'demo-anon' });

  second.child.kill('SIGTERM');
  await killed(second.child);
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);
