/**
 * A server as its own Node process, for the tests and the benchmark that need real processes: several servers on one
 * database, SIGKILL mid-payment, throughput without the test runner in the way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { entryCommand } from './compiledServer';
import { TEST_PASSWORD_COST } from './testDatabase';

export const root = path.resolve(__dirname, '..', '..');

export interface ChildServer {
  child: ChildProcess;
  /** http://127.0.0.1:port */
  base: string;
  port: number;
  /** What the process printed to stdout and stderr so far (its start banner among it). */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<ChildProcess>();

export const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.once('exit', () => resolve())));

/** How a child process ended: its exit code, or the signal that killed it. */
export const exitOf = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve({ code: child.exitCode, signal: child.signalCode }) : child.once('exit', (code, signal) => resolve({ code, signal })),
  );

/**
 * Waits until `check` holds, asking every 20 ms: for what another process does, which no event of this one tells.
 * Fails with `what` after `timeoutMs`.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Runs a TypeScript entry as its own Node process and resolves once it prints the line `pattern` captures the port
 * from. `node --import tsx` rather than the `tsx` CLI: the CLI runs the entry in a child of its own, so a SIGKILL
 * would hit the wrapper and leave the server running, and the pid would not be the server's (its RSS, its CPU pin).
 * In a test run whose setup compiled the server, the entry's compiled file instead (test/support/compiledServer.ts).
 * `cpus` pins the process to those CPUs (taskset), for the benchmark's one-process and two-process figures.
 */
export function startTs(entry: string, env: Record<string, string>, pattern: RegExp, cpus?: string): Promise<ChildServer> {
  const node = [process.execPath, ...entryCommand(entry)];
  const [command, ...args] = cpus ? ['taskset', '-c', cpus, ...node] : node;
  const child = spawn(command!, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    // A process compiles the server as it starts: tens of seconds when the machine is busy.
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = pattern.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      // Keep draining (and keeping) stdout so a chatty child never blocks on a full pipe.
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => process.stderr.write(`[${path.basename(entry)} ${child.pid}] ${c}`));
      resolve({
        child,
        port: Number(port),
        base: `http://127.0.0.1:${port}`,
        output: () => output,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && !child.signalCode) child.kill(signal);
          await exited(child);
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code ?? signal}:\n${output}`));
    });
  });
}

/** Where a child server keeps its data: DATABASE_URL (PostgreSQL) or DATABASE_PATH (SQLite). */
export type DatabaseEnv = { DATABASE_URL: string } | { DATABASE_PATH: string };

export const databaseEnv = (database: { databaseUrl: string | null; databasePath: string }): DatabaseEnv =>
  database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : { DATABASE_PATH: database.databasePath };

/**
 * A test run's sandbox servers hash passwords at the tests' low cost: each start hashes the demo's and the desk's
 * passwords and a decoy, about 0.3 s of a child's 2 s start at the production cost. The benchmark's servers keep the
 * production cost, as a merchant's do, and so do the servers a test starts without the sandbox (which refuse a cost
 * below it).
 */
const testPasswordCost = (env: Record<string, string>): Record<string, string> =>
  process.env.JEST_WORKER_ID && env.SANDBOX !== '0' ? { PASSWORD_COST: String(TEST_PASSWORD_COST) } : {};

/** The real server (`server/main.ts`) on a free port, rate limit off, logging off, seeding the demo bills if empty. */
export function startCheckoutServer(database: DatabaseEnv, distDir: string, options: { cpus?: string; env?: Record<string, string> } = {}): Promise<ChildServer> {
  const env = options.env ?? {};
  return startTs(
    'server/main.ts',
    { ...database, DIST_DIR: distDir, RATE_LIMIT_PER_MINUTE: '0', ...testPasswordCost(env), ...env },
    /Checkout is running on http:\/\/localhost:(\d+)/,
    options.cpus,
  );
}

/**
 * For child servers a test kills: an acquirer time-out shorter than the product's 10 s. A process killed while asking
 * the acquirer leaves its lease on the order for a few calls' time-outs and a second, and the one after it waits that
 * out (10 s for a three-call read, not 31 s); the fake holds a lost answer back past it. 3 s is still far above what a
 * call to the sandbox acquirer takes on a busy machine.
 */
export const KILLED_PROCESS_ENV = { ACQUIRER_TIMEOUT_MS: '3000' };

/** SIGKILLs every child server still running (a test's afterAll, the benchmark's finally). */
export async function killChildServers(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      child.kill('SIGKILL');
      return exited(child);
    }),
  );
}
