/**
 * The desk at start and from the command line: with the sandbox on, the banner prints one line per demo account in the
 * documented form; with it off, no demo account exists (those a sandbox run left are removed). `npm run desk:user`
 * adds a member of staff with a one-time password, or sets the one given.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { verifyPassword } from '../../../server/accounts/passwords';
import { parseArguments } from '../../../server/desk/userCommand';
import { allStaff, staffByEmail } from '../../../server/desk/staffQueries';
import { migrations } from '../../../server/migrations';
import { openStore } from '../../../server/store/store';
import { databaseEnv, exited, killChildServers, root, startCheckoutServer } from '../../support/childServer';
import { entryCommand } from '../../support/compiledServer';
import { freshDatabase, type TestDatabase } from '../../support/testDatabase';
import { tempDirs } from '../helpers';

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

async function withStore<T>(work: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>): Promise<T> {
  const store = await openStore({ migrations, ...database, now: Date.now });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function command(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [...entryCommand('server/desk/userCommand.ts'), ...args], {
    cwd: root,
    env: { ...process.env, ...databaseEnv(database), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return exited(child).then(() => ({ code: child.exitCode, out }));
}

// Two starts of the server, each allowed the 90 s a start is given on a busy machine.
test('the sandbox’s start prints the demo accounts, one line each; a start with it off leaves none', async () => {
  const sandbox = await startCheckoutServer(databaseEnv(database), tempDirs().distDir);
  const lines = sandbox.output().split('\n').filter((line) => line.startsWith('Desk '));
  await sandbox.stop();
  expect(lines).toEqual([
    expect.stringMatching(/^Desk manager: manager@demo\.local \/ [A-Za-z0-9]{14}$/),
    expect.stringMatching(/^Desk accountant: accountant@demo\.local \/ [A-Za-z0-9]{14}$/),
    expect.stringMatching(/^Desk admin: admin@demo\.local \/ [A-Za-z0-9]{14}$/),
  ]);
  const printed = lines[0]!.split(' / ')[1]!;
  await withStore(async (store) => expect(await verifyPassword(printed, (await staffByEmail(store, 'manager@demo.local'))!.password_hash)).toBe(true));

  const production = await startCheckoutServer(databaseEnv(database), tempDirs().distDir, { env: PRODUCTION });
  expect(production.output()).not.toContain('@demo.local');
  await production.stop();
  expect(await withStore((store) => allStaff(store))).toEqual([]);
}, 180_000);

test('`npm run desk:user` adds staff with a one-time password, or sets the one given; bad arguments say how', async () => {
  const made = await command(['--email', 'Boss@Example.ru', '--role', 'admin', '--name', 'Анна']);
  expect(made.code).toBe(0);
  const password = /One-time password: (\S+)/.exec(made.out)![1]!;
  await withStore(async (store) => {
    const boss = (await staffByEmail(store, 'boss@example.ru'))!;
    expect([boss.role, boss.name, boss.must_change_password]).toEqual(['admin', 'Анна', 1]);
    expect(await verifyPassword(password, boss.password_hash)).toBe(true);
  });
  const given = await command(['--email', 'boss@example.ru', '--role', 'accountant', '--password', 'a-chosen-password']);
  expect(given.out).toContain('Password set as given.');
  await withStore(async (store) => {
    const boss = (await staffByEmail(store, 'boss@example.ru'))!;
    expect([boss.role, boss.must_change_password, await verifyPassword('a-chosen-password', boss.password_hash)]).toEqual(['accountant', 0, true]);
  });
  const short = await command(['--email', 'x@example.ru', '--role', 'manager', '--password', 'short']);
  expect([short.code, short.out.trim()]).toEqual([1, 'Проверьте поля формы: password — не короче 10 символов']);
  expect(parseArguments(['--email', 'a@b.ru', '--role', 'boss'])).toMatch(/^--role must be one of manager, accountant, admin/);
  expect(parseArguments(['--email'])).toMatch(/^Unknown or incomplete argument: --email/);
  expect(parseArguments(['--email', 'a@b.ru', '--role', 'manager'])).toEqual({ email: 'a@b.ru', role: 'manager' });
});
