import type { LighthouseFigures } from './page';

export interface Figures {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; os: string; node: string; loadAverageAtStart: number };
  initialJsGzipBytes: number;
  lighthouse: LighthouseFigures | { error: string };
  firstContentMs: number;
  getResultRps: number;
  getResultP99Ms: number;
  helloRps: number;
  getResultToHelloRatio: number;
  paymentUrlRps: number;
  yardsticks: {
    barePostRps: number;
    barePostReadRps: number;
    barePostToHelloRatio: number;
    barePostReadToHelloRatio: number;
    getResultToBarePostReadRatio: number;
  };
  rssMbAfterLoad: number | null;
  otpBruteForce: { sent: number; accepted: number };
  concurrentPayAttempts: { requests: number; attemptsCreated: number };
  fuzzBodies: { sent: number; status500: number };
  crashRecovery: { paymentsLost: number };
  cspViolations: number;
  details: {
    initialJsFiles: { url: string; gzipBytes: number }[];
    firstStepMs: number;
    paymentUrl: { distinct: boolean; billsMade: number; requests: number; durationS: number };
    lighthouseRuns: number[];
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

const n = (value: number) => value.toLocaleString('en-US');

function rows(f: Figures): Row[] {
  const lh = 'error' in f.lighthouse ? null : f.lighthouse;
  const lhRow = (name: string, value: number | undefined, budget: string, ok: (v: number) => boolean | null): Row =>
    lh && value !== undefined ? { name, value: String(value), budget, met: ok(value) } : { name, value: 'not run', budget, met: budget === '—' ? null : false };
  return [
    { name: 'initialJsGzipBytes', value: n(f.initialJsGzipBytes), budget: '≤ 110,000', met: f.initialJsGzipBytes <= 110_000 },
    lhRow('lighthouse.performance', lh?.performance, '≥ 95', (v) => v >= 95),
    lhRow('lighthouse.accessibility', lh?.accessibility, '100', (v) => v === 100),
    lhRow('lighthouse.bestPractices', lh?.bestPractices, '≥ 95', (v) => v >= 95),
    lhRow('lighthouse.lcpMs', lh?.lcpMs, '—', () => null),
    lhRow('lighthouse.tbtMs', lh?.tbtMs, '—', () => null),
    lhRow('lighthouse.cls', lh?.cls, '—', () => null),
    { name: 'firstContentMs (median of 10)', value: n(f.firstContentMs), budget: '—', met: null },
    { name: 'getResultRps', value: n(f.getResultRps), budget: '—', met: null },
    { name: 'getResultP99Ms', value: n(f.getResultP99Ms), budget: '≤ 25', met: f.getResultP99Ms <= 25 },
    { name: 'helloRps', value: n(f.helloRps), budget: '—', met: null },
    { name: 'getResultToHelloRatio', value: f.getResultToHelloRatio.toFixed(2), budget: '≥ 0.5', met: f.getResultToHelloRatio >= 0.5 },
    { name: 'yardstick: barePostRps (to hello)', value: `${n(f.yardsticks.barePostRps)} (${f.yardsticks.barePostToHelloRatio.toFixed(2)})`, budget: '—', met: null },
    { name: 'yardstick: barePostReadRps (to hello)', value: `${n(f.yardsticks.barePostReadRps)} (${f.yardsticks.barePostReadToHelloRatio.toFixed(2)})`, budget: '—', met: null },
    { name: 'getResultToBarePostReadRatio', value: f.yardsticks.getResultToBarePostReadRatio.toFixed(2), budget: '—', met: null },
    { name: 'paymentUrlRps', value: n(f.paymentUrlRps), budget: '—', met: null },
    { name: 'rssMbAfterLoad', value: f.rssMbAfterLoad === null ? 'n/a' : String(f.rssMbAfterLoad), budget: '—', met: null },
    { name: 'otpBruteForce (accepted / sent)', value: `${f.otpBruteForce.accepted} / ${n(f.otpBruteForce.sent)}`, budget: '0 accepted', met: f.otpBruteForce.accepted === 0 },
    { name: 'concurrentPayAttempts (attempts / requests)', value: `${f.concurrentPayAttempts.attemptsCreated} / ${f.concurrentPayAttempts.requests}`, budget: '1 attempt', met: f.concurrentPayAttempts.attemptsCreated === 1 },
    { name: 'fuzzBodies (500s / sent)', value: `${f.fuzzBodies.status500} / ${n(f.fuzzBodies.sent)}`, budget: '0', met: f.fuzzBodies.status500 === 0 },
    { name: 'crashRecovery.paymentsLost', value: String(f.crashRecovery.paymentsLost), budget: '0', met: f.crashRecovery.paymentsLost === 0 },
    { name: 'cspViolations', value: String(f.cspViolations), budget: '0', met: f.cspViolations === 0 },
  ];
}

export const budgets = (f: Figures) => rows(f).filter((r) => r.met !== null);

const mark = (met: boolean | null) => (met === null ? '' : met ? 'met' : 'MISSED');

/** Plain text for the terminal. */
export function table(f: Figures): string {
  const all = rows(f);
  const width = (pick: (r: Row) => string, title: string) => Math.max(title.length, ...all.map((r) => pick(r).length));
  const [a, b, c] = [width((r) => r.name, 'Figure'), width((r) => r.value, 'Value'), width((r) => r.budget, 'Budget')];
  const line = (x: string, y: string, z: string, w: string) => `${x.padEnd(a)}  ${y.padStart(b)}  ${z.padEnd(c)}  ${w}`;
  return [line('Figure', 'Value', 'Budget', ''), ...all.map((r) => line(r.name, r.value, r.budget, mark(r.met)))].join('\n');
}

const machineLine = (f: Figures) =>
  `${f.machine.cpu}, ${f.machine.cores} cores, ${f.machine.memoryGb} GB, ${f.machine.os}, Node ${f.machine.node} (load average ${f.machine.loadAverageAtStart} when the run began)`;

/** docs/benchmarks.md: the table the README shows, with the date and the machine. */
export function markdown(f: Figures): string {
  const lh = 'error' in f.lighthouse ? null : f.lighthouse;
  const journeys = f.details.cspJourneys.map((j) => `${j.name}${j.completed ? '' : ` (did not complete: ${j.error})`}`).join('; ');
  return [
    '# Benchmarks',
    '',
    `Measured by \`npm run bench\` on ${f.date.slice(0, 10)} (${f.date}), on ${machineLine(f)}.`,
    'A shared machine: throughput and timings vary from run to run; the resilience figures do not.',
    '',
    '| Figure | Value | Budget | |',
    '|---|---:|---|---|',
    ...rows(f).map((r) => `| ${r.name} | ${r.value} | ${r.budget} | ${mark(r.met)} |`),
    '',
    'How each figure is taken:',
    '',
    `- initialJsGzipBytes: gzip level 9 of the scripts \`/pay/demo-anon\` loads before its first step is on screen (${f.details.initialJsFiles.map((file) => `${file.url} ${n(file.gzipBytes)}`).join(', ')}).`,
    lh
      ? `- Lighthouse 12, mobile form factor, simulated throttling, Debian Chromium headless, on \`/pay/demo-anon\`: the run with the median performance score of ${f.details.lighthouseRuns.length} (scores ${f.details.lighthouseRuns.join(', ')}).${lh.failedAudits.length ? ` Audits below full score: ${lh.failedAudits.join(', ')}.` : ''}`
      : `- Lighthouse did not run: ${(f.lighthouse as { error: string }).error}`,
    `- firstContentMs: median first contentful paint over 10 cold loads in headless Chromium (mobile viewport); the first step's heading is on screen at ${n(f.details.firstStepMs)} ms (median).`,
    '- Throughput: autocannon, 50 connections, 10 s each, against the server as its own process (rate limit and logging off); helloRps is a bare Fastify route in its own process in the same run.',
    "- Yardsticks (not budgets; bench/hello.ts, same process as helloRps, same run, same connections and duration): barePostRps is a bare Fastify POST route taking the status poll's JSON body with its request and response schemas and reading nothing; barePostReadRps adds the poll's one status read (`store.statusOfOrder`, SQLite file in WAL mode as the server opens it). getResultToBarePostReadRatio is what the checkout's own per-request work (session cookie, CSRF check, security headers) leaves of that.",
    `- paymentUrlRps: every request starts an attempt on a bill of its own: ${n(f.details.paymentUrl.requests)} requests on ${n(f.details.paymentUrl.billsMade)} fresh bills made beforehand, over ${f.details.paymentUrl.durationS} s${f.details.paymentUrl.distinct ? '' : ' (a few requests repeated a bill)'}.`,
    '- rssMbAfterLoad: resident memory of the server process after the three runs.',
    '- otpBruteForce: wrong codes against one phone, asking for a new code whenever the rules allow, on a fake clock (as test/server/bruteforce.test.ts).',
    '- concurrentPayAttempts: 20 simultaneous Pay requests for one bill, half through a second server process on the same database; attempts counted in the database.',
    '- fuzzBodies: random bodies across every POST route over HTTP (the seed of test/server/input.test.ts).',
    '- crashRecovery: 5 pending card payments, SIGKILL, restart on the same database, each paid on the sandbox card form; lost = not reported paid.',
    `- cspViolations: reports received at /csp-report during the journeys: ${journeys}.`,
    '',
  ].join('\n');
}
