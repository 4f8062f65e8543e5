/**
 * The store figures, measured for each engine in the same run: SQLite (a file per figure) and PostgreSQL (a database
 * per figure on a throw-away cluster with production-like durability: fsync on, synchronous_commit off).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findPostgresBin, startCluster, type Cluster } from '../scripts/pgCluster';
import { databaseEnv } from '../test/support/childServer';
import { clusterProcesses, cpuMeter } from './cpu';
import { barePostLoad, compareLoads, getResultLoad, getResultLoadSpread, paymentUrlLoad, type LoadFigures } from './load';
import { rssMb, startCheckoutServer, startHelloServer } from './processes';
import { concurrencyAndCrash, otpBruteForce, type BenchDatabase } from './resilience';

export type EngineName = 'sqlite' | 'postgres';

export interface EngineFigures {
  engine: EngineName;
  /** The bare POST with the poll's schemas and its one database read, on this engine (bench/hello.ts). */
  barePostRead: LoadFigures & { runsRps: number[] };
  /** One server process, 50 connections. */
  getResult: LoadFigures & { runsRps: number[] };
  /** Two server processes of one database, 25 connections each. */
  getResultTwoProcesses: LoadFigures & { perProcessRps: number[] };
  getResultToBarePostReadRatio: number;
  twoProcessesToOneRatio: number;
  /**
   * CPU time (user + system, from /proc) of the server processes and of PostgreSQL's, per 10,000 status polls: with one
   * server process, with two, and the two's over the one's. `postgresCounted`: false on a cluster the bench did not start
   * (BENCH_DATABASE_URL), whose processes it cannot see.
   */
  cpuPer10kPolls: {
    oneProcessMs: number;
    twoProcessesMs: number;
    ratio: number;
    postgresCounted: boolean;
    /** The same figures apart: the server processes' share and PostgreSQL's (0 on SQLite), to tell which one grew. */
    oneProcess: CpuShares;
    twoProcesses: CpuShares;
  };
  paymentUrl: LoadFigures & { billsMade: number; durationS: number; distinct: boolean };
  rssMbAfterLoad: number | null;
  otpBruteForce: { sent: number; accepted: number; evaluated: number; codesSent: number };
  concurrentPayAttempts: { requests: number; attemptsCreated: number };
  crashRecovery: { pending: number; paymentsLost: number };
}

/** CPU ms per 10,000 polls, the servers' and the database's. */
export interface CpuShares {
  serversMs: number;
  databaseMs: number;
}

export type EngineOutcome = EngineFigures | { engine: EngineName; skipped: string };

/** What warms a process up before it is measured: about two seconds of its load. */
const WARM_UP = { requests: 10_000 };

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

/** Where each figure's data goes: a new SQLite file, or a new database on the bench's PostgreSQL cluster. */
export interface Databases {
  engine: EngineName;
  create(name: string): Promise<BenchDatabase>;
  /** The engine's own processes, whose CPU a load costs too (SQLite has none; a cluster the bench did not start: unknown). */
  processes(): number[] | null;
  close(): Promise<void>;
}

export function sqliteDatabases(): Databases {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sqlite-'));
  return {
    engine: 'sqlite',
    create: async (name) => ({ databaseUrl: null, databasePath: path.join(dir, `${name}.sqlite`) }),
    processes: () => [],
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A throw-away cluster, or null (with the reason) when PostgreSQL is not installed here. */
export async function postgresDatabases(): Promise<Databases | string> {
  if (!process.env.BENCH_DATABASE_URL && !findPostgresBin()) return 'PostgreSQL is not installed (apt-get install -y postgresql)';
  let cluster: Cluster | null = null;
  const adminUrl = process.env.BENCH_DATABASE_URL ?? (cluster = await startCluster({ durability: 'realistic' })).adminUrl;
  const made: string[] = [];
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    engine: 'postgres',
    processes: () => (cluster ? clusterProcesses(path.join(cluster.dir, 'data')) : null),
    create: async (name) => {
      const database = `bench_${name}_${crypto.randomBytes(3).toString('hex')}`;
      await admin(`CREATE DATABASE ${database}`);
      made.push(database);
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      return { databaseUrl: url.toString(), databasePath: '' };
    },
    close: async () => {
      if (cluster) return cluster.stop();
      for (const database of made) await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

type Step = <T>(name: string, run: () => Promise<T>) => Promise<T>;

/** The CPU time of the server processes and the database's over the load runs it meters, per 10,000 of their requests. */
function pollCost(servers: () => number[], database: () => number[]) {
  const serversMeter = cpuMeter(servers);
  const databaseMeter = cpuMeter(database);
  let serversCpuMs = 0;
  let databaseCpuMs = 0;
  let requests = 0;
  const per10k = (ms: number) => (requests > 0 ? Math.round((ms / requests) * 10_000) : NaN);
  return {
    metered:
      <Figures extends { requests: number }>(run: () => Promise<Figures>) =>
      async (): Promise<Figures> => {
        serversMeter.start();
        databaseMeter.start();
        const figures = await run();
        serversCpuMs += serversMeter.stop();
        databaseCpuMs += databaseMeter.stop();
        requests += figures.requests;
        return figures;
      },
    per10k: () => per10k(serversCpuMs + databaseCpuMs),
    shares: (): CpuShares => ({ serversMs: per10k(serversCpuMs), databaseMs: per10k(databaseCpuMs) }),
  };
}

/** Every store figure of one engine. `checkoutBase` is any running checkout, whose tab headers the yardstick sends. */
export async function engineFigures(databases: Databases, distDir: string, step: Step): Promise<EngineFigures> {
  const engine = databases.engine;
  const yardstick = await startHelloServer(databaseEnv(await databases.create('yardstick')) as Record<string, string>);
  const load = databaseEnv(await databases.create('load'));
  const first = await startCheckoutServer(load, distDir);
  let second: Awaited<ReturnType<typeof startCheckoutServer>> | null = null;
  try {
    // The yardstick and the poll alternate (yardstick, poll, poll, yardstick): their ratio is the budget. The polls' CPU
    // (the server's and PostgreSQL's) is metered over the poll runs only.
    const bare = await barePostLoad(yardstick.base, first.base, '/post-read');
    const poll = await getResultLoad(first.base);
    // Both answer a short load first, not counted: a process's first thousands of requests run code the JIT has not
    // compiled yet (the server has far more of it than the yardstick), which would weigh on the first run of each and
    // on the CPU per poll.
    await step(`${engine}: warming up the yardstick and the server`, async () => {
      await (await barePostLoad(yardstick.base, first.base, '/post-read', WARM_UP))();
      await (await getResultLoad(first.base, WARM_UP))();
    });
    const databaseProcesses = () => databases.processes() ?? [];
    const oneProcess = pollCost(() => [first.child.pid!], databaseProcesses);
    const { a: barePostRead, b: getResult } = await step(`${engine}: bare POST with the poll's one read, and /api/getResult/ (one process)`, () =>
      compareLoads(bare, oneProcess.metered(poll)),
    );
    await yardstick.stop();
    second = await startCheckoutServer(load, distDir);
    const two = second;
    const twoProcesses = pollCost(() => [first.child.pid!, two.child.pid!], databaseProcesses);
    // The second process warms up first, as the first did before its runs (its code compiled by the JIT, its pool's
    // connections made): a cold process would cost more per poll for being new, not for being the second.
    await step(`${engine}: warming up the second process`, () => getResultLoadSpread([first.base, two.base]));
    const getResultTwoProcesses = await step(`${engine}: /api/getResult/, two processes`, () => twoProcesses.metered(() => getResultLoadSpread([first.base, two.base]))());
    await second.stop();
    second = null;
    const paymentUrl = await step(`${engine}: /api/getPaymentUrl/ on distinct bills`, () => paymentUrlLoad(first.base));
    const rssMbAfterLoad = rssMb(first.child.pid!);
    await first.stop();

    const otp = await step(`${engine}: OTP brute force`, async () => otpBruteForce(await databases.create('otp'), distDir));
    const resilience = await step(`${engine}: concurrent Pay and crash recovery`, async () => concurrencyAndCrash(await databases.create('crash'), distDir));
    return {
      engine,
      barePostRead,
      getResult,
      getResultTwoProcesses,
      getResultToBarePostReadRatio: ratio(getResult.rps, barePostRead.rps),
      twoProcessesToOneRatio: ratio(getResultTwoProcesses.rps, getResult.rps),
      cpuPer10kPolls: {
        oneProcessMs: oneProcess.per10k(),
        twoProcessesMs: twoProcesses.per10k(),
        ratio: ratio(twoProcesses.per10k(), oneProcess.per10k()),
        postgresCounted: engine !== 'postgres' || databases.processes() !== null,
        oneProcess: oneProcess.shares(),
        twoProcesses: twoProcesses.shares(),
      },
      paymentUrl,
      rssMbAfterLoad,
      otpBruteForce: otp,
      ...resilience,
    };
  } finally {
    await yardstick.stop('SIGKILL');
    await second?.stop('SIGKILL');
    await first.stop('SIGKILL');
  }
}
