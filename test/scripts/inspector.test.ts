import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpack from 'webpack';
import makeConfig from '../../webpack.config';

// The Stately inspector is a development tool: `?inspect` attaches it in a development build, and the
// production bundle must carry no trace of it. Each build goes to its own temp folder, never to dist/.

interface Built {
  /** Every file webpack read to build the bundle (concatenated modules included). */
  modules: string[];
  /** Every emitted JavaScript file's text. */
  scripts: Map<string, string>;
}

async function build(mode: 'production' | 'development'): Promise<Built> {
  const dir = mkdtempSync(path.join(tmpdir(), `inspector-${mode}-`));
  try {
    // The page's build (the other one is the server's rendering, which carries no inspector either: it runs no actor's inspect).
    const config = makeConfig({}, { mode }).find((built) => built.name === 'page')!;
    config.output = { ...config.output, path: dir };
    config.context = path.resolve(__dirname, '../..');
    // Source maps would only repeat module names; the bundle text is what ships.
    config.devtool = false;
    const stats = await new Promise<webpack.Stats>((resolve, reject) =>
      webpack(config, (error, result) => (error || !result ? reject(error ?? new Error('no stats')) : resolve(result))),
    );
    if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
    const modules = [...stats.compilation.fileDependencies];
    const scripts = new Map(
      readdirSync(dir)
        .filter((file) => file.endsWith('.js'))
        .map((file) => [file, readFileSync(path.join(dir, file), 'utf8')]),
    );
    return { modules, scripts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const inspectorModules = (built: Built) => built.modules.filter((m) => m.includes(`${path.sep}@statelyai${path.sep}inspect${path.sep}`));
const inspectorTraces = (built: Built) =>
  [...built.scripts].filter(([, text]) => /@statelyai|statelyai_inspect|createBrowserInspector|stately\.ai/.test(text)).map(([file]) => file);

test('the production bundle holds no trace of @statelyai/inspect', async () => {
  const production = await build('production');
  expect(production.scripts.size).toBeGreaterThan(0);
  expect(production.modules.some((m) => m.endsWith(path.join('src', 'main.tsx')))).toBe(true);
  expect(inspectorModules(production)).toEqual([]);
  expect(inspectorTraces(production)).toEqual([]);
}, 240_000);

test('the development bundle carries the inspector, in its own chunk loaded only for ?inspect', async () => {
  const development = await build('development');
  expect(inspectorModules(development).length).toBeGreaterThan(0);
  const traces = inspectorTraces(development);
  // The inspector's own chunk, and the main bundle that loads it on demand.
  expect(traces).toEqual(expect.arrayContaining(['main.js', expect.stringMatching(/statelyai_inspect/)]));
  expect(development.scripts.get('main.js')).toMatch(/\.has\(['"]inspect['"]\)/);
}, 240_000);
