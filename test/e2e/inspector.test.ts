import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpack from 'webpack';
import makeConfig from '../../webpack.config';
import { newContext, useLiveServer } from './harness';
import { messages } from '../../src/services/messages';

const m = messages;

// `?inspect` in a development build attaches the Stately inspector to the root actor. The inspector
// opens stately.ai in a new window; with no network here, window.open is replaced by a stand-in that records
// what the inspector posts to it.

let devDir: string;

beforeAll(async () => {
  devDir = mkdtempSync(path.join(tmpdir(), 'checkout-dev-'));
  // The page's build only: without the server's rendering the page renders on its own, as it did.
  const config = makeConfig({}, { mode: 'development' }).find((built) => built.name === 'page')!;
  config.output = { ...config.output, path: devDir };
  config.context = path.resolve(__dirname, '../..');
  const stats = await new Promise<webpack.Stats>((resolve, reject) =>
    webpack(config, (error, result) => (error || !result ? reject(error ?? new Error('no stats')) : resolve(result))),
  );
  if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
}, 300_000);
afterAll(() => {
  if (devDir) rmSync(devDir, { recursive: true, force: true });
});
// Registered after the build above, so it serves the development build.
const live = useLiveServer(() => ({ distDir: devDir }));

async function openBill(query: string) {
  const context = await newContext(live.browser);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { inspectorWindow: { url: string; posted: unknown[] } | null };
    w.inspectorWindow = null;
    window.open = ((url?: string | URL) => {
      const posted: unknown[] = [];
      w.inspectorWindow = { url: String(url), posted };
      return { closed: false, close() {}, postMessage: (message: unknown) => posted.push(message) } as unknown as Window;
    }) as typeof window.open;
  });
  await page.goto(`${live.server.url}/pay/demo-anon${query}`);
  await page.getByRole('button', { name: m.app.continue }).waitFor();
  return { context, page, scripts };
}

test('?inspect loads the inspector, opens the Stately window and sends it the root actor', async () => {
  const { context, page, scripts } = await openBill('?inspect');
  expect(scripts.some((script) => /statelyai_inspect/.test(script))).toBe(true);
  await page.waitForFunction(() => (window as unknown as { inspectorWindow: unknown }).inspectorWindow !== null);
  expect(await page.evaluate(() => (window as unknown as { inspectorWindow: { url: string } }).inspectorWindow.url)).toBe('https://stately.ai/inspect');

  // The Stately page says it is connected; the inspector then flushes what it has seen.
  await page.evaluate(() => window.postMessage({ type: '@statelyai.connected' }, '*'));
  await page.waitForFunction(() => (window as unknown as { inspectorWindow: { posted: unknown[] } }).inspectorWindow.posted.length > 0);
  const seen = await page.evaluate(() => {
    const posted = (window as unknown as { inspectorWindow: { posted: { type?: string; name?: string; snapshot?: { value?: unknown } }[] } })
      .inspectorWindow.posted;
    return {
      actors: posted.filter((m) => m.type === '@xstate.actor').map((m) => m.name),
      values: posted.filter((m) => m.type === '@xstate.snapshot').map((m) => JSON.stringify(m.snapshot?.value)),
    };
  });
  // The root machine and its checkout child are reported, and the root's snapshots follow it to the content.
  expect(seen.actors).toEqual(expect.arrayContaining(['app', 'checkout']));
  expect(seen.values).toContain(JSON.stringify({ content: 'ready' }));
  await context.close();
});

test('without ?inspect the development page neither loads nor opens the inspector', async () => {
  const { context, page, scripts } = await openBill('');
  expect(scripts.some((script) => /statelyai/.test(script))).toBe(false);
  expect(await page.evaluate(() => (window as unknown as { inspectorWindow: unknown }).inspectorWindow)).toBeNull();
  await context.close();
});
