/*
 * `npm run bench`: builds the production page, starts the real server, measures the page, the server and its
 * resilience, prints a table and writes docs/benchmarks.json and docs/benchmarks.md. Not a test: the figures vary with
 * the machine and its load. `--no-build` reuses the bundle in DIST_DIR. `--store` measures only the store figures of
 * both engines (with their yardsticks) and writes them to .tmp/bench-store.json; `--page` only the page's (first
 * scripts, loads on a slow network, Lighthouse) into .tmp/bench-page.json; `--hooks` what each per-request hook costs
 * the status poll on both engines (bench/hooks.ts) into .tmp/bench-hooks.json; all three leave docs/ alone.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { engineFigures, postgresDatabases, sqliteDatabases, type Databases, type EngineOutcome } from './engines';
import { hookFigures, hooksTable, type HookFigures } from './hooks';
import { BENCH_CALLBACK_KEY, callbackRate, payLatency } from './acquirer';
import { barePostLoad, helloLoad } from './load';
import { cspJourneys } from './journeys';
import { firstContent, initialJs, launchBrowser, lighthouseRun, medianLighthouse, SLOW_NETWORK, slowLoads, type LighthouseFigures } from './page';
import { root, startCheckoutServer, startHelloServer, type ChildServer } from './processes';
import { SERVER_RENDER_FILE } from '../server/platform/pages';
import { fuzzBodies } from './resilience';
import { budgets, keptHooksSection, markdown, pageTable, storeTable, table } from './report';
import { firstScriptWeights } from './weights';

const LIGHTHOUSE_RUNS = 5;
/** Loads on the slow phone network (bench/page.ts SLOW_NETWORK). */
const SLOW_LOADS = 5;
const distDir = path.resolve(root, process.env.DIST_DIR ?? '.tmp/dist-bench');
const docs = path.join(root, 'docs');
const log = (line: string) => process.stdout.write(`${line}\n`);

async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  log(`… ${name}`);
  const result = await run();
  log(`  ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function build() {
  const built = spawnSync('npx', ['webpack', '--mode', 'production'], {
    cwd: root,
    // With source maps no script names (hidden), for the weights of the first scripts' modules (bench/weights.ts).
    env: { ...process.env, DIST_DIR: path.relative(root, distDir), NODE_OPTIONS: '--import tsx', BUNDLE_MAPS: '1' },
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error(`the build failed (${built.status})`);
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    /** Other work on the machine when the run began (1-minute load average): the figures move with it. */
    loadAverageAtStart: Math.round(os.loadavg()[0]! * 10) / 10,
  };
}

/** The store figures of SQLite, then of PostgreSQL when it is installed here. */
async function bothEngines(): Promise<{ sqlite: EngineOutcome; postgres: EngineOutcome }> {
  const sqlite = sqliteDatabases();
  const sqliteFigures = await engineFigures(sqlite, distDir, step).finally(() => sqlite.close());
  const postgres = await postgresDatabases();
  const postgresFigures: EngineOutcome =
    typeof postgres === 'string' ? { engine: 'postgres', skipped: postgres } : await engineFigures(postgres, distDir, step).finally(() => postgres.close());
  return { sqlite: sqliteFigures, postgres: postgresFigures };
}

/** The page's bundle the servers serve: built into DIST_DIR, or with `--no-build` the one already there. */
async function bundle(): Promise<void> {
  if (!process.argv.includes('--no-build')) return void (await step(`build into ${path.relative(root, distDir)}`, async () => build()));
  // Without one every server answers the page with 503, and the first figure would fail far from the cause.
  if (!fs.existsSync(path.join(distDir, SERVER_RENDER_FILE))) {
    throw new Error(`--no-build: no bundle in ${path.relative(root, distDir)}. Run without --no-build, or point DIST_DIR at a build (DIST_DIR=dist after npm run build).`);
  }
}

/** `--store`: the store's figures of both engines only, for working on the server. */
async function storeOnly() {
  await bundle();
  const figures = { date: new Date().toISOString(), machine: machine(), engines: await bothEngines() };
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  fs.writeFileSync(path.join(root, '.tmp', 'bench-store.json'), `${JSON.stringify(figures, null, 2)}\n`);
  log(storeTable(figures.engines));
}

/** `--hooks`: what each per-request hook costs the poll, on SQLite and then PostgreSQL (when it is installed). */
async function hooksOnly() {
  await bundle();
  const settings = { rounds: Number(process.env.BENCH_HOOK_ROUNDS ?? 25), requestsPerRun: Number(process.env.BENCH_HOOK_REQUESTS ?? 3000) };
  const host = machine();
  const engines: HookFigures[] = [];
  // Written after each engine, so that a failure on the second keeps the first's figures.
  const measure = async (databases: Databases) => {
    engines.push(await hookFigures(databases, distDir, step, settings).finally(() => databases.close()));
    const figures = { date: new Date().toISOString(), machine: { ...host, loadAverageAtEnd: Math.round(os.loadavg()[0]! * 10) / 10 }, engines };
    fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(root, '.tmp', 'bench-hooks.json'), `${JSON.stringify(figures, null, 2)}\n`);
    log(hooksTable(engines));
  };
  await measure(sqliteDatabases());
  const postgres = await postgresDatabases();
  if (typeof postgres === 'string') log(`PostgreSQL skipped: ${postgres}`);
  else await measure(postgres);
}

/** The page's figures on a running checkout: its first scripts and their modules, its loads, Lighthouse, CSP reports. */
async function pageFigures(server: ChildServer) {
  const base = server.base;
  const browser = await launchBrowser();
  const js = await step('initial JS', () => initialJs(browser, base));
  const content = await step('first content, 10 loads', () => firstContent(browser, base, 10));
  const slow = await step(`${SLOW_LOADS} loads at ${SLOW_NETWORK.kbps} kbps, ${SLOW_NETWORK.latencyMs} ms`, () => slowLoads(browser, base, SLOW_LOADS));
  const csp = await step('browser journeys for CSP reports', () => cspJourneys(browser, base));
  await browser.close();

  // Lighthouse varies from run to run: each figure is the median of the runs (the audits below full score are those of
  // the run with the median score; each run's report in .tmp/).
  let lighthouse: LighthouseFigures | { error: string };
  const lighthouseRuns: LighthouseFigures[] = [];
  try {
    for (let run = 1; run <= LIGHTHOUSE_RUNS; run++) {
      const saveTo = path.join(root, '.tmp', `bench-lighthouse-${run}.json`);
      lighthouseRuns.push(await step(`Lighthouse (mobile) ${run}/${LIGHTHOUSE_RUNS}`, () => lighthouseRun(`http://localhost:${server.port}/pay/demo-anon`, saveTo)));
    }
    lighthouse = medianLighthouse(lighthouseRuns);
  } catch (error) {
    lighthouse = { error: String((error as Error).message) };
  }
  return { js, weights: firstScriptWeights(distDir, js.files.map((file) => file.url)), content, slow, csp, lighthouse, lighthouseRuns };
}

/** `--page`: the page's figures only, for working on the page. */
async function pageOnly() {
  await bundle();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const server = await startCheckoutServer({ DATABASE_PATH: path.join(dir, 'checkout.sqlite') }, distDir);
  try {
    const page = await pageFigures(server);
    fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(root, '.tmp', 'bench-page.json'), `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), ...page }, null, 2)}\n`);
    log(pageTable(page));
  } finally {
    await server.stop('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (process.argv.includes('--store')) return storeOnly();
  if (process.argv.includes('--page')) return pageOnly();
  if (process.argv.includes('--hooks')) return hooksOnly();
  const began = Date.now();
  const host = machine();
  await bundle();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  let server: ChildServer | null = null;
  let hello: ChildServer | null = null;
  try {
    server = await startCheckoutServer({ DATABASE_PATH: path.join(dir, 'checkout.sqlite') }, distDir, { env: { ACQUIRER_CALLBACK_KEY: BENCH_CALLBACK_KEY } });
    const base = server.base;
    const { js, weights, content, slow, csp, lighthouse, lighthouseRuns } = await pageFigures(server);

    hello = await startHelloServer();
    const helloFigures = await step('autocannon: bare Fastify route', () => helloLoad(hello!.base));
    const barePost = await step("autocannon: bare Fastify POST with the poll's schemas", async () => (await barePostLoad(hello!.base, base, '/post'))());
    await hello.stop();
    hello = null;
    const pay = await step('Pay through the acquirer gateway (register.do over HTTP)', () => payLatency(base));
    const callbacks = await step('autocannon: signed acquirer callbacks', () => callbackRate(base));
    const fuzz = await step('fuzz bodies', () => fuzzBodies(server!));
    await server.stop();
    server = null;

    // The store's figures, engine by engine in the same run.
    const engines = await bothEngines();

    const figures = {
      date: new Date().toISOString(),
      // Other work on the shared machine, at the start and at the end of the run: the figures move with it.
      machine: { ...host, loadAverageAtEnd: Math.round(os.loadavg()[0]! * 10) / 10 },
      initialJsGzipBytes: js.initialJsGzipBytes,
      lighthouse,
      firstContentMs: content.firstContentMs,
      slow,
      helloRps: helloFigures.rps,
      barePostRps: barePost.rps,
      payP50Ms: pay.card.p50Ms,
      payP99Ms: pay.card.p99Ms,
      callbackRps: callbacks.rps,
      engines,
      fuzzBodies: fuzz,
      cspViolations: csp.cspViolations,
      // Details behind the headline figures.
      details: {
        initialJsFiles: js.files,
        initialJsWeights: weights,
        firstStepMs: content.firstStepMs,
        firstContentSamplesMs: content.samples,
        hello: helloFigures,
        barePost,
        pay,
        callbacks,
        lighthouseRuns: lighthouseRuns.map((run) => ({ performance: run.performance, lcpMs: run.lcpMs, tbtMs: run.tbtMs })),
        cspJourneys: csp.journeys,
        cspConsoleMessages: csp.consoleCspMessages,
        runtimeS: Math.round((Date.now() - began) / 1000),
      },
    };

    fs.mkdirSync(docs, { recursive: true });
    fs.writeFileSync(path.join(docs, 'benchmarks.json'), `${JSON.stringify(figures, null, 2)}\n`);
    const page = path.join(docs, 'benchmarks.md');
    const kept = fs.existsSync(page) ? keptHooksSection(fs.readFileSync(page, 'utf8')) : '';
    fs.writeFileSync(page, markdown(figures, kept));
    log('');
    log(table(figures));
    const missed = budgets(figures).filter((b) => !b.met);
    log('');
    log(missed.length ? `Budgets missed: ${missed.map((b) => b.name).join(', ')}` : 'Every budget met.');
    log(`Written docs/benchmarks.json and docs/benchmarks.md (${figures.details.runtimeS} s).`);
  } finally {
    await hello?.stop('SIGKILL');
    await server?.stop('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
