/**
 * What each per-request hook costs the status poll (`npm run bench -- --hooks`), on each engine in one run. The real
 * server (bench/checkout.ts) runs with every hook on, with each hook left out in turn, and with all of them out, each
 * variant a process of its own on one database, beside the poll's yardstick (bench/hello.ts's `/post-read`: the poll's
 * schemas and its one read, on a database of its own).
 *
 * The machine is shared, so nothing is compared across minutes: each round runs the yardstick, every variant (in an
 * order that turns with the round) and the yardstick again, a short load each (a fixed number of requests, a second or
 * so); a variant's ratio is its rps over the mean of its round's two yardstick runs. Its CPU per poll is the
 * scheduler's count for its own process's threads, in ns (what other work on the machine changes least). Each figure is
 * the median over many rounds.
 */
import { PER_REQUEST_HOOKS, type PerRequestHook } from '../server/config';
import { databaseEnv } from '../test/support/childServer';
import { cpuNsOf } from './cpu';
import type { Databases } from './engines';
import { barePostLoad, getResultLoad, type LoadFigures } from './load';
import { startHelloServer, startTs, type ChildServer } from './processes';

/** A server variant: the hooks it leaves out. */
export interface HookVariant {
  name: string;
  off: PerRequestHook[];
}

export const HOOK_VARIANTS: HookVariant[] = [
  { name: 'every hook on', off: [] },
  ...PER_REQUEST_HOOKS.map((hook) => ({ name: `without ${hook}`, off: [hook] })),
  { name: 'all of them out', off: [...PER_REQUEST_HOOKS] },
];

/** One variant's figures: medians over the rounds, and every round's. */
export interface VariantFigures {
  name: string;
  off: PerRequestHook[];
  /** Its rps over its round's yardstick rps. */
  ratio: number;
  rps: number;
  /** Server CPU per poll, µs (user + system of its process). */
  cpuUsPerPoll: number;
  rounds: { rps: number; ratio: number; cpuUsPerPoll: number; non2xx: number }[];
}

export interface HookFigures {
  engine: Databases['engine'];
  rounds: number;
  requestsPerRun: number;
  /** The yardstick's own: rps (median of its runs) and its process's CPU per request, µs. */
  yardstick: { rps: number; cpuUsPerRequest: number };
  variants: VariantFigures[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round2 = (value: number) => Math.round(value * 100) / 100;

/** A load's run with its process's CPU time counted: rps and CPU µs per request. */
async function metered(pid: number, run: () => Promise<LoadFigures>) {
  const before = cpuNsOf(pid) ?? 0;
  const started = process.hrtime.bigint();
  const figures = await run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuNs = (cpuNsOf(pid) ?? 0) - before;
  // A run of a second or two: rps from its own length (autocannon's per-second average has one or two samples).
  return { ...figures, rps: Math.round(figures.requests / seconds), cpuUsPerRequest: figures.requests > 0 ? cpuNs / 1000 / figures.requests : NaN };
}

type Step = <T>(name: string, run: () => Promise<T>) => Promise<T>;

/** A process started again when it did not start in time (a busy shared machine can take longer than the limit). */
async function startPatiently(start: () => Promise<ChildServer>, tries = 3): Promise<ChildServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt === tries) throw error;
    }
  }
}

/** Every variant's figures on one engine. */
export async function hookFigures(databases: Databases, distDir: string, step: Step, { rounds = 25, requestsPerRun = 3000, warmupRuns = 10 } = {}): Promise<HookFigures> {
  const engine = databases.engine;
  const yardstickDatabase = databaseEnv(await databases.create('hooks_yardstick')) as Record<string, string>;
  const yardstick = await startPatiently(() => startHelloServer(yardstickDatabase));
  const database = databaseEnv(await databases.create('hooks'));
  const servers: ChildServer[] = [];
  try {
    for (const variant of HOOK_VARIANTS) {
      const env = { ...database, DIST_DIR: distDir, RATE_LIMIT_PER_MINUTE: '0', BENCH_HOOKS_OFF: variant.off.join(',') };
      servers.push(await startPatiently(() => startTs('bench/checkout.ts', env, /Checkout is running on http:\/\/localhost:(\d+)/)));
    }
    const length = { requests: requestsPerRun };
    const bare = await barePostLoad(yardstick.base, servers[0]!.base, '/post-read', length);
    const polls = await Promise.all(servers.map((server) => getResultLoad(server.base, length)));
    // The first runs warm the JIT and the pools (a process polled for the first time answers a tenth as fast): not counted.
    await step(`${engine}: warming up the yardstick and ${servers.length} servers`, async () => {
      for (let w = 0; w < warmupRuns; w++) {
        await bare();
        for (const poll of polls) await poll();
      }
    });

    const yardstickRuns: { rps: number; cpuUsPerRequest: number }[] = [];
    const runs = HOOK_VARIANTS.map(() => [] as VariantFigures['rounds']);
    for (let r = 0; r < rounds; r++) {
      await step(`${engine}: round ${r + 1} of ${rounds}`, async () => {
        const before = await metered(yardstick.child.pid!, bare);
        const taken: { index: number; figures: Awaited<ReturnType<typeof metered>> }[] = [];
        for (let k = 0; k < polls.length; k++) {
          const index = (k + r) % polls.length;
          taken.push({ index, figures: await metered(servers[index]!.child.pid!, polls[index]!) });
        }
        const after = await metered(yardstick.child.pid!, bare);
        yardstickRuns.push(before, after);
        const yardstickRps = (before.rps + after.rps) / 2;
        for (const { index, figures } of taken) {
          runs[index]!.push({ rps: figures.rps, ratio: round2(figures.rps / yardstickRps), cpuUsPerPoll: Math.round(figures.cpuUsPerRequest), non2xx: figures.non2xx });
        }
      });
    }
    return {
      engine,
      rounds,
      requestsPerRun,
      yardstick: { rps: Math.round(median(yardstickRuns.map((run) => run.rps))), cpuUsPerRequest: Math.round(median(yardstickRuns.map((run) => run.cpuUsPerRequest))) },
      variants: HOOK_VARIANTS.map((variant, index) => ({
        ...variant,
        ratio: round2(median(runs[index]!.map((run) => run.ratio))),
        rps: Math.round(median(runs[index]!.map((run) => run.rps))),
        cpuUsPerPoll: Math.round(median(runs[index]!.map((run) => run.cpuUsPerPoll))),
        rounds: runs[index]!,
      })),
    };
  } finally {
    await yardstick.stop('SIGKILL');
    for (const server of servers) await server.stop('SIGKILL');
  }
}

/** The figures as a markdown table: per engine, each variant's ratio and CPU per poll, and what leaving a hook out saves. */
export function hooksTable(engines: HookFigures[]): string {
  const head = ['Server', ...engines.flatMap((e) => [`${e.engine}: getResult / barePostRead`, `${e.engine}: CPU µs per poll (saved)`])];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const [index, variant] of HOOK_VARIANTS.entries()) {
    const cells = engines.flatMap((e) => {
      const on = e.variants[0]!;
      const v = e.variants[index]!;
      const saved = index === 0 ? '' : ` (${on.cpuUsPerPoll - v.cpuUsPerPoll})`;
      return [v.ratio.toFixed(2), `${v.cpuUsPerPoll}${saved}`];
    });
    lines.push(`| ${variant.name} | ${cells.join(' | ')} |`);
  }
  lines.push(`| yardstick (/post-read) | ${engines.flatMap((e) => ['1', String(e.yardstick.cpuUsPerRequest)]).join(' | ')} |`);
  return lines.join('\n');
}

