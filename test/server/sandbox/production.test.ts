import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { openStore } from '../../../server/store/store';
import { databaseEnv, exited, killChildServers, root, startCheckoutServer } from '../../support/childServer';
import { entryCommand } from '../../support/compiledServer';
import { freshDatabase, type TestDatabase } from '../../support/testDatabase';
import { tempDirs } from '../helpers';
import { accountByPhone } from '../../../server/accounts/accountQueries';
import { billByOid, hasNoBills } from '../../../server/billing/queries';
import { pointsBalance } from '../../../server/loyalty/ledger';
import { migrations } from '../../../server/migrations';

/**
 * A production start: with the sandbox off the server seeds nothing (no demo bills, no demo account that
 * signs in, no points in the real ledger) and its banner names none of it; `npm run seed` refuses and says why.
 */

/** What a deployment sets with the sandbox off: a real acquirer and SMS provider (here addresses nothing answers, never called). */
const PRODUCTION = {
  SANDBOX: '0',
  ACQUIRER_URL: 'http://127.0.0.1:9/payment/rest/',
  ACQUIRER_TOKEN: 'production-token',
  ACQUIRER_CALLBACK_KEY: 'production-callback-key',
  SMSRU_API_ID: 'production-api-id',
  SMSRU_URL: 'http://127.0.0.1:9/',
};

let dir: string;
let database: TestDatabase;
beforeEach(async () => {
  dir = tempDirs().dir;
  database = await freshDatabase(dir);
});
afterEach(async () => {
  await killChildServers();
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What the demo seed would have written, read straight from the database. */
async function demoLeft() {
  const store = await openStore({ migrations, ...database, now: Date.now });
  try {
    return {
      empty: await hasNoBills(store),
      demoBill: await billByOid(store, 'demo-anon'),
      demoAccount: await accountByPhone(store, '79990000002'),
      points: await pointsBalance(store, 'C-1001'),
    };
  } finally {
    await store.close();
  }
}

test('a start with SANDBOX=0 seeds nothing and its banner lists no demo URL, test card or demo account', async () => {
  const server = await startCheckoutServer(databaseEnv(database), tempDirs().distDir, { env: PRODUCTION });
  const banner = server.output();
  expect(banner).toContain('Checkout is running on');
  expect(banner).toContain('Sandbox is off (SANDBOX=0)');
  expect(banner).not.toMatch(/demo-|\/pay\/|Demo account|79990000002|demo-pass|4111 1111|seeded/);
  await server.stop();
  expect(await demoLeft()).toEqual({ empty: true, demoBill: undefined, demoAccount: undefined, points: 0 });
});

test('a start with the sandbox on still seeds the demo and lists it', async () => {
  const server = await startCheckoutServer(databaseEnv(database), tempDirs().distDir);
  expect(server.output()).toMatch(/demo bills seeded[\s\S]*\/pay\/demo-anon[\s\S]*Demo account: 79990000002/);
  await server.stop();
  expect(await demoLeft()).toMatchObject({ empty: false, demoBill: { oid: 'demo-anon', link_id: 'demo-anon' }, points: 4500 });
});

test('`npm run seed` with SANDBOX=0 refuses, says why, exits non-zero and writes nothing', async () => {
  const child = spawn(process.execPath, entryCommand('server/sandbox/seed.ts'), {
    cwd: root,
    env: { ...process.env, ...databaseEnv(database), ...PRODUCTION },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await exited(child);
  expect(child.exitCode).toBe(1);
  expect(stderr).toContain('Not seeding: SANDBOX=0 is a production setup');
  expect(await demoLeft()).toEqual({ empty: true, demoBill: undefined, demoAccount: undefined, points: 0 });
});
