import type { CpuShares, EngineFigures, EngineOutcome } from './engines';
import { SLOW_NETWORK, type InitialJs, type LighthouseFigures, type SlowLoads } from './page';
import type { FileWeights } from './weights';

export interface Figures {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; os: string; node: string; loadAverageAtStart: number; loadAverageAtEnd?: number };
  initialJsGzipBytes: number;
  lighthouse: LighthouseFigures | { error: string };
  firstContentMs: number;
  /** `/pay/demo-anon` on a slow phone network. */
  slow?: SlowLoads;
  helloRps: number;
  barePostRps: number;
  /** Pay (a card attempt registered at the sandbox's RBS fake over HTTP), one at a time: median and 99th percentile. */
  payP50Ms?: number;
  payP99Ms?: number;
  /** Signed acquirer callbacks answered per second (50 connections). */
  callbackRps?: number;
  engines: { sqlite: EngineOutcome; postgres: EngineOutcome };
  fuzzBodies: { sent: number; status500: number };
  cspViolations: number;
  details: {
    initialJsFiles: { url: string; gzipBytes: number }[];
    initialJsWeights?: FileWeights[];
    firstStepMs: number;
    lighthouseRuns: ({ performance: number; lcpMs: number; tbtMs: number } | number)[];
    cspJourneys: { name: string; completed: boolean; error?: string }[];
    cspConsoleMessages: number;
    runtimeS: number;
  };
}

interface Row {
  name: string;
  value: string;
  budget: string;
  /** null: a figure with no budget. */
  met: boolean | null;
}

/** A figure of the store, one value per engine. */
interface EngineRow {
  name: string;
  values: string[];
  budget: string;
  /** Per engine; null: no budget for that engine (or it was not measured). */
  met: (boolean | null)[];
}

const n = (value: number) => value.toLocaleString('en-US');
const ENGINES = ['sqlite', 'postgres'] as const;
const ENGINE_TITLES = ['SQLite', 'PostgreSQL'];

/** The budgets of the first scripts and of the first view (the bill on screen from the first response). */
export const PAGE_BUDGETS = { initialJsGzipBytes: 95_000, lighthousePerformance: 98, lcpMs: 1200, amountVisibleMs: 1500 } as const;

const slowRows = (slow: SlowLoads | undefined): Row[] => {
  const at = `${SLOW_NETWORK.kbps} kbps, ${SLOW_NETWORK.latencyMs} ms (median of ${slow?.samples.length ?? 5})`;
  if (!slow) return [{ name: `amountVisibleMs at ${at}`, value: 'not run', budget: `≤ ${n(PAGE_BUDGETS.amountVisibleMs)}`, met: false }];
  return [
    { name: `firstContentMs at ${at}`, value: n(slow.firstContentMs), budget: '—', met: null },
    { name: `amountVisibleMs at ${at}`, value: n(slow.amountVisibleMs), budget: `≤ ${n(PAGE_BUDGETS.amountVisibleMs)}`, met: slow.amountVisibleMs <= PAGE_BUDGETS.amountVisibleMs },
    { name: `interactiveMs at ${at}`, value: n(slow.interactiveMs), budget: '—', met: null },
  ];
};

/** The page's rows: the first scripts, Lighthouse, the loads. */
function pageRows(f: Pick<Figures, 'initialJsGzipBytes' | 'lighthouse' | 'firstContentMs' | 'slow'>): Row[] {
  const lh = 'error' in f.lighthouse ? null : f.lighthouse;
  const lhRow = (name: string, value: number | undefined, budget: string, ok: (v: number) => boolean | null): Row =>
    lh && value !== undefined ? { name, value: String(value), budget, met: ok(value) } : { name, value: 'not run', budget, met: budget === '—' ? null : false };
  return [
    { name: 'initialJsGzipBytes (before the first step is interactive)', value: n(f.initialJsGzipBytes), budget: `≤ ${n(PAGE_BUDGETS.initialJsGzipBytes)}`, met: f.initialJsGzipBytes <= PAGE_BUDGETS.initialJsGzipBytes },
    lhRow('lighthouse.performance (median of 5)', lh?.performance, `≥ ${PAGE_BUDGETS.lighthousePerformance}`, (v) => v >= PAGE_BUDGETS.lighthousePerformance),
    lhRow('lighthouse.accessibility', lh?.accessibility, '100', (v) => v === 100),
    lhRow('lighthouse.bestPractices', lh?.bestPractices, '≥ 95', (v) => v >= 95),
    lhRow('lighthouse.lcpMs (median of 5)', lh?.lcpMs, `≤ ${n(PAGE_BUDGETS.lcpMs)}`, (v) => v <= PAGE_BUDGETS.lcpMs),
    lhRow('lighthouse.tbtMs (median of 5)', lh?.tbtMs, '—', () => null),
    lhRow('lighthouse.cls', lh?.cls, '—', () => null),
    ...slowRows(f.slow),
    { name: 'firstContentMs, unthrottled (median of 10)', value: n(f.firstContentMs), budget: '—', met: null },
  ];
}

function rows(f: Figures): Row[] {
  return [
    ...pageRows(f),
    { name: 'helloRps (bare GET)', value: n(f.helloRps), budget: '—', met: null },
    { name: "yardstick: barePostRps (the poll's schemas, no read)", value: n(f.barePostRps), budget: '—', met: null },
    { name: 'payP50Ms / payP99Ms (Pay through the acquirer gateway)', value: f.payP50Ms === undefined ? '—' : `${n(f.payP50Ms)} / ${n(f.payP99Ms ?? 0)}`, budget: '—', met: null },
    { name: 'callbackRps (signed acquirer callbacks)', value: f.callbackRps === undefined ? '—' : n(f.callbackRps), budget: '—', met: null },
    { name: 'fuzzBodies (500s / sent)', value: `${f.fuzzBodies.status500} / ${n(f.fuzzBodies.sent)}`, budget: '0', met: f.fuzzBodies.status500 === 0 },
    { name: 'cspViolations', value: String(f.cspViolations), budget: '0', met: f.cspViolations === 0 },
  ];
}

const measured = (outcome: EngineOutcome): EngineFigures | null => ('skipped' in outcome ? null : outcome);

/** A CPU figure, said to leave PostgreSQL's own out where the bench could not see its processes. */
const cpuValue = (e: EngineFigures, ms: number | undefined, shares: CpuShares | undefined) => {
  if (ms === undefined) return 'n/a';
  if (e.cpuPer10kPolls?.postgresCounted === false) return `${n(ms)} (server only)`;
  // On PostgreSQL, which side a second process costs more: the servers' or the cluster's.
  return shares && shares.databaseMs > 0 ? `${n(ms)} (${n(shares.serversMs)} + ${n(shares.databaseMs)})` : n(ms);
};

function engineRows(f: Pick<Figures, 'engines'>): EngineRow[] {
  const all = ENGINES.map((engine) => measured(f.engines[engine]));
  const row = (name: string, budget: string, value: (e: EngineFigures) => string, ok?: (e: EngineFigures, engine: (typeof ENGINES)[number]) => boolean | null): EngineRow => ({
    name,
    budget,
    values: all.map((e, i) => (e ? value(e) : `skipped: ${(f.engines[ENGINES[i]!] as { skipped: string }).skipped}`)),
    met: all.map((e, i) => (e && ok ? ok(e, ENGINES[i]!) : e || !ok ? null : false)),
  });
  return [
    row('getResultRps (1 process, 50 connections)', '—', (e) => n(e.getResult.rps)),
    row('getResultP99Ms (1 process)', '≤ 25', (e) => n(e.getResult.p99Ms), (e) => e.getResult.p99Ms <= 25),
    row("yardstick: barePostReadRps (the poll's schemas and its one read)", '—', (e) => n(e.barePostRead.rps)),
    row('getResult / barePostRead', '≥ 0.8', (e) => e.getResultToBarePostReadRatio.toFixed(2), (e) => e.getResultToBarePostReadRatio >= 0.8),
    row('getResultRps (2 processes, 25 + 25 connections)', '—', (e) => `${n(e.getResultTwoProcesses.rps)} (${e.getResultTwoProcesses.perProcessRps.map(n).join(' + ')})`),
    row('getResultP99Ms (2 processes)', '≤ 25', (e) => n(e.getResultTwoProcesses.p99Ms), (e) => e.getResultTwoProcesses.p99Ms <= 25),
    row('getResult rps, 2 processes / 1 process', '—', (e) => e.twoProcessesToOneRatio.toFixed(2)),
    row('cpuMsPer10kPolls, 1 process (server + PostgreSQL)', '—', (e) => cpuValue(e, e.cpuPer10kPolls?.oneProcessMs, e.cpuPer10kPolls?.oneProcess)),
    row('cpuMsPer10kPolls, 2 processes (servers + PostgreSQL)', '—', (e) => cpuValue(e, e.cpuPer10kPolls?.twoProcessesMs, e.cpuPer10kPolls?.twoProcesses)),
    row('cpuPer10kPolls, 2 processes / 1 process', '≤ 1.1', (e) => (e.cpuPer10kPolls ? e.cpuPer10kPolls.ratio.toFixed(2) : 'n/a'), (e) => (e.cpuPer10kPolls ? e.cpuPer10kPolls.ratio <= 1.1 : null)),
    row('paymentUrlRps (1 process)', '—', (e) => n(e.paymentUrl.rps)),
    row('rssMbAfterLoad', '—', (e) => (e.rssMbAfterLoad === null ? 'n/a' : String(e.rssMbAfterLoad))),
    row('otpBruteForce (accepted / sent)', '0 accepted', (e) => `${e.otpBruteForce.accepted} / ${n(e.otpBruteForce.sent)}`, (e) => e.otpBruteForce.accepted === 0),
    row(
      'concurrentPayAttempts (attempts / requests, 2 processes)',
      '1 attempt',
      (e) => `${e.concurrentPayAttempts.attemptsCreated} / ${e.concurrentPayAttempts.requests}`,
      (e) => e.concurrentPayAttempts.attemptsCreated === 1,
    ),
    row('crashRecovery.paymentsLost', '0', (e) => `${e.crashRecovery.paymentsLost} of ${e.crashRecovery.pending}`, (e) => e.crashRecovery.paymentsLost === 0),
  ];
}

/** Every budget of the run, page and store, as name / met. */
export function budgets(f: Figures): { name: string; met: boolean }[] {
  return [
    ...rows(f)
      .filter((r) => r.met !== null)
      .map((r) => ({ name: r.name, met: r.met! })),
    ...engineRows(f).flatMap((r) => r.met.flatMap((met, i) => (met === null ? [] : [{ name: `${r.name} (${ENGINE_TITLES[i]})`, met }]))),
  ];
}

const mark = (met: boolean | null) => (met === null ? '' : met ? 'met' : 'MISSED');
const marks = (met: (boolean | null)[]) => (met.every((m) => m === null) ? '' : met.map((m) => mark(m) || '—').join(' / '));

/** Columns padded to their widest cell; the value columns (1 to `values`) right-aligned. */
function pad(cells: string[][], values: number): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  return cells.map((c) => c.map((cell, i) => (i >= 1 && i <= values ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** The store figures of both engines, plain text. */
export const storeTable = (engines: Figures['engines']): string =>
  pad([['Store figure', ...ENGINE_TITLES, 'Budget', ''], ...engineRows({ engines }).map((r) => [r.name, ...r.values, r.budget, marks(r.met)])], ENGINES.length);

/** The page's figures, plain text (`npm run bench -- --page`). */
export const pageTable = (page: { js: InitialJs; content: { firstContentMs: number }; slow: SlowLoads; lighthouse: LighthouseFigures | { error: string } }): string =>
  pad(
    [
      ['Figure', 'Value', 'Budget', ''],
      ...pageRows({ initialJsGzipBytes: page.js.initialJsGzipBytes, lighthouse: page.lighthouse, firstContentMs: page.content.firstContentMs, slow: page.slow }).map((r) => [
        r.name,
        r.value,
        r.budget,
        mark(r.met),
      ]),
    ],
    1,
  );

/** Plain text for the terminal. */
export function table(f: Figures): string {
  const page = pad([['Figure', 'Value', 'Budget', ''], ...rows(f).map((r) => [r.name, r.value, r.budget, mark(r.met)])], 1);
  return `${page}\n\n${storeTable(f.engines)}`;
}

const machineLine = (f: Figures) =>
  `${f.machine.cpu}, ${f.machine.cores} cores, ${f.machine.memoryGb} GB, ${f.machine.os}, Node ${f.machine.node} (load average ${f.machine.loadAverageAtStart} when the run began${f.machine.loadAverageAtEnd === undefined ? '' : `, ${f.machine.loadAverageAtEnd} when it ended`})`;

/** The two tables in markdown (the README shows them too). */
export function markdownTables(f: Figures): string {
  return [
    '| Figure | Value | Budget | |',
    '|---|---:|---|---|',
    ...rows(f).map((r) => `| ${r.name} | ${r.value} | ${r.budget} | ${mark(r.met)} |`),
    '',
    `| Store figure | ${ENGINE_TITLES.join(' | ')} | Budget | |`,
    '|---|---:|---:|---|---|',
    ...engineRows(f).map((r) => `| ${r.name} | ${r.values.join(' | ')} | ${r.budget} | ${marks(r.met)} |`),
  ].join('\n');
}

/**
 * The part of docs/benchmarks.md that `npm run bench -- --hooks` measures (what each per-request hook costs the
 * poll), between these marks: the full run writes the rest of the file anew and keeps it.
 */
export const HOOKS_SECTION_MARKS = ['<!-- per-request hooks: npm run bench -- --hooks -->', '<!-- /per-request hooks -->'] as const;

/** The kept section of an existing docs/benchmarks.md, marks included, or '' when it has none. */
export function keptHooksSection(existing: string): string {
  const [begin, end] = HOOKS_SECTION_MARKS;
  const from = existing.indexOf(begin);
  const to = existing.indexOf(end, from);
  return from >= 0 && to > from ? existing.slice(from, to + end.length) : '';
}

/** docs/benchmarks.md: the tables with the date and the machine, and how each figure is taken. */
export function markdown(f: Figures, hooksSection = ''): string {
  const lh = 'error' in f.lighthouse ? null : f.lighthouse;
  const journeys = f.details.cspJourneys.map((j) => `${j.name}${j.completed ? '' : ` (did not complete: ${j.error})`}`).join('; ');
  const sqlite = measured(f.engines.sqlite);
  return [
    '# Benchmarks',
    '',
    `Measured by \`npm run bench\` on ${f.date.slice(0, 10)} (${f.date}), on ${machineLine(f)}.`,
    'A shared machine: throughput and timings vary from run to run; the resilience figures do not.',
    '',
    markdownTables(f),
    '',
    'How each figure is taken:',
    '',
    `- initialJsGzipBytes: gzip level 9 of the scripts \`/pay/demo-anon\` loads before its first step is interactive (the page's script has hydrated the server's markup and marked the mount point: Continue works), counted from the served HTML's script tags and Resource Timing (${f.details.initialJsFiles.map((file) => `${file.url} ${n(file.gzipBytes)}`).join(', ')}). What they are made of is below.`,
    lh
      ? `- Lighthouse 12, mobile form factor, simulated throttling, Debian Chromium headless, on \`/pay/demo-anon\`: each figure the median of ${f.details.lighthouseRuns.length} runs (performance, LCP ms, TBT ms per run: ${f.details.lighthouseRuns.map((run) => (typeof run === 'number' ? String(run) : `${run.performance} / ${n(run.lcpMs)} / ${n(run.tbtMs)}`)).join('; ')}).${lh.failedAudits.length ? ` Audits below full score in the run of the median score: ${lh.failedAudits.join(', ')}.` : ''}`
      : `- Lighthouse did not run: ${(f.lighthouse as { error: string }).error}`,
    f.slow
      ? `- At ${SLOW_NETWORK.kbps} kbps and ${SLOW_NETWORK.latencyMs} ms: Chromium's own network throttling (the DevTools protocol's, per request) on ${f.slow.samples.length} cold loads of \`/pay/demo-anon\` in a phone viewport, each figure the median (per load: ${f.slow.samples.map((sample) => `${n(sample.firstContentMs)} / ${n(sample.amountVisibleMs)} / ${n(sample.interactiveMs)}`).join('; ')} ms). firstContent is the browser's first contentful paint; amountVisible the first animation frame after the amount to pay entered the page (a stylesheet still loading holds frames back), at the earliest that paint; interactive the moment the page's script marked the mount point.`
      : '- The loads at 400 kbps did not run.',
    `- firstContentMs, unthrottled: median first contentful paint over 10 cold loads in headless Chromium (mobile viewport); the first step is interactive at ${n(f.details.firstStepMs)} ms (median).`,
    '- Throughput: autocannon, 50 connections, 10 s each, in the bench process, against servers running as their own processes (rate limit and logging off). helloRps and barePostRps are bare Fastify routes in a process of their own (bench/hello.ts), the first a GET, the second a POST taking the status poll\'s JSON body with its request and response schemas and reading nothing.',
    "- Store figures, each engine in the same run: SQLite is a file per figure (WAL, synchronous=NORMAL); PostgreSQL is a database per figure on a throw-away local cluster (fsync on, synchronous_commit off: like SQLite's setting, durable across a process crash), 10 pooled connections per server process. barePostReadRps is the bare POST plus the poll's one database read (`store.pollStatus`: the session's CSRF token and times and the order's status in one query), the work the poll cannot do without; getResult / barePostRead is what the checkout's own per-request work (session cookie, comparing the token, security headers) leaves of it. The two are measured alternately (yardstick, poll, poll, yardstick, 10 s each, after each has answered 10,000 requests not counted, so that neither is measured while the JIT compiles it) and each averaged, so that the machine's other load weighs on both alike.",
    "- Two processes: a second server process on the same database, the 50 connections split 25 + 25, each polling an order of its own; rps is the sum, p99 the worse of the two. The load generator, both servers and PostgreSQL share the machine's cores, so on a 2-core machine a second process mostly competes for the same CPU: the rps ratio says how much the store lets two processes add, not what two machines would.",
    "- cpuMsPer10kPolls: what the polls cost in CPU rather than how many a shared machine fits in: user + system time (the kernel's counters in /proc) of the server processes and, on PostgreSQL, of every process of the bench's cluster (the postmaster and its backends), over the poll runs only, per 10,000 polls answered. One process: the two poll runs of the comparison above (the process warmed up first); two processes: the run of the two. On PostgreSQL the brackets give its two parts, the server processes' and the cluster's. Two processes cost no more per poll than one (≤ 1.1×) when the store's work per poll does not grow with the processes sharing it; the load generator runs in the bench's own process and is not counted.",
    sqlite
      ? `- paymentUrlRps: every request starts an attempt on a bill of its own, made beforehand (SQLite: ${n(sqlite.paymentUrl.requests)} requests on ${n(sqlite.paymentUrl.billsMade)} bills over ${sqlite.paymentUrl.durationS} s${sqlite.paymentUrl.distinct ? '' : ', a few requests repeated a bill'}).`
      : '- paymentUrlRps: every request starts an attempt on a bill of its own, made beforehand.',
    '- payP50Ms / payP99Ms: 60 card Pays one after another, each on a fresh bill, so each creates an attempt and calls register.do of the sandbox\'s RBS fake over HTTP (the same server process plays the bank); details also hold the fast-payment figures (register.do, then get.do and its QR). callbackRps: signed callbacks (HMAC-SHA256 checked) of one settled order, 50 connections for 10 s.',
    '- rssMbAfterLoad: resident memory of the first server process after its load runs.',
    '- otpBruteForce: 10,000 wrong codes against one phone, asking for a new code whenever the rules allow, on a fake clock (as test/server/accounts/bruteforce.test.ts), in-process on the engine.',
    '- concurrentPayAttempts: 20 simultaneous Pay requests for one bill, half through each of two server processes started together on one empty database; attempts counted in the database.',
    '- fuzzBodies: random bodies across every POST route over HTTP (the seed of test/server/input.test.ts).',
    '- crashRecovery: 5 pending card payments, SIGKILL, restart on the same database, each paid on the sandbox card form; lost = not reported paid.',
    `- cspViolations: reports received at /csp-report during the journeys: ${journeys}.`,
    '',
    ...weightTables(f.details.initialJsWeights ?? []),
    ...(hooksSection ? ['', hooksSection, ''] : []),
  ].join('\n');
}

/** How many modules of a script its table lists; the rest are summed in one line. */
const WEIGHT_ROWS = 30;

/** What the first scripts are made of (bench/weights.ts), a table per script. */
function weightTables(files: FileWeights[]): string[] {
  if (files.length === 0) return [];
  return [
    '## What the first scripts weigh',
    '',
    'Each script\'s minified bytes laid to the module its source map names (a package, a file of the page, or webpack\'s runtime and module glue), and that share of the script\'s gzip size: gzip packs a file as a whole, so the shares add up to the file while a module gzipped alone would not.',
    '',
    ...files.flatMap((file) => {
      const shown = file.modules.slice(0, WEIGHT_ROWS);
      const rest = file.modules.slice(WEIGHT_ROWS);
      return [
        `### ${file.file}: ${n(file.gzipBytes)} B gzip`,
        '',
        '| Module | Minified B | gzip B (share) |',
        '|---|---:|---:|',
        ...shown.map((module) => `| ${module.module} | ${n(module.bytes)} | ${n(module.gzipBytes)} |`),
        ...(rest.length
          ? [`| ${rest.length} more modules | ${n(rest.reduce((sum, m) => sum + m.bytes, 0))} | ${n(rest.reduce((sum, m) => sum + m.gzipBytes, 0))} |`]
          : []),
        '',
      ];
    }),
  ];
}
