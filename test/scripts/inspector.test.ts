import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpack from 'webpack';
import makeConfig from '../../webpack.config';
import { NoDevelopmentTools } from '../../scripts/developmentTools';

// The Stately inspector is a development tool: `?inspect` attaches it in a development build, and the
// production bundle must carry no trace of it. Every production build refuses to read it (scripts/developmentTools.ts);
// the text that ships is read from dist/, which `npm test` builds first (the browser journeys serve the same). Each build
// here goes to its own temp folder, never to dist/.

const root = path.resolve(__dirname, '..', '..');

interface Built {
  /** Every file webpack read to build the bundle (concatenated modules included). */
  modules: string[];
  /** Every emitted JavaScript file's text. */
  scripts: Map<string, string>;
  /** The build's errors, when `allowErrors` let it fail. */
  errors: string[];
}

/**
 * Builds the page in `mode` (from `entry` in place of the page's own when given). `minimize: false` skips only the
 * minifier, which decides no module's place in the bundle (webpack has already left out what a dead branch imports)
 * and is the slowest part of a production build.
 */
async function build(mode: 'production' | 'development', options: { minimize?: boolean; entry?: string; allowErrors?: boolean } = {}): Promise<Built> {
  const dir = mkdtempSync(path.join(tmpdir(), `inspector-${mode}-`));
  try {
    // The page's build (the other ones are the server's rendering and the desk, which attach no inspector).
    const config = makeConfig({}, { mode }).find((built) => built.name === 'page')!;
    config.output = { ...config.output, path: dir };
    config.context = root;
    if (options.entry) config.entry = { main: options.entry };
    // Source maps would only repeat module names; the bundle text is what ships.
    config.devtool = false;
    if (options.minimize === false) config.optimization = { ...config.optimization, minimize: false };
    const stats = await new Promise<webpack.Stats>((resolve, reject) =>
      webpack(config, (error, result) => (error || !result ? reject(error ?? new Error('no stats')) : resolve(result))),
    );
    if (stats.hasErrors() && !options.allowErrors) throw new Error(stats.toString('errors-only'));
    const modules = [...stats.compilation.fileDependencies];
    const scripts = new Map(
      readdirSync(dir)
        .filter((file) => file.endsWith('.js'))
        .map((file) => [file, readFileSync(path.join(dir, file), 'utf8')]),
    );
    return { modules, scripts, errors: stats.compilation.errors.map((error) => error.message) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const inspectorModules = (built: Built) => built.modules.filter((m) => m.includes(`${path.sep}@statelyai${path.sep}inspect${path.sep}`));
const inspectorTraces = (built: Built) =>
  [...built.scripts].filter(([, text]) => /@statelyai|statelyai_inspect|createBrowserInspector|stately\.ai/.test(text)).map(([file]) => file);

/** Where `npm run build` put the page (DIST_DIR when the run builds elsewhere, as the journeys read it). */
const distDir = path.resolve(root, process.env.DIST_DIR ?? 'dist');

/**
 * The page's scripts as they ship: those `npm run build` left in dist/ (the desk's and the server's rendering are in
 * folders of their own), or, when nothing is built there (`npm run test:unit` builds nothing), a minified production
 * build of its own.
 */
async function shipped(): Promise<Built> {
  if (!existsSync(path.join(distDir, 'index.html'))) return build('production');
  const files = readdirSync(distDir).filter((file) => file.endsWith('.js'));
  return { modules: [], scripts: new Map(files.map((file) => [file, readFileSync(path.join(distDir, file), 'utf8')])), errors: [] };
}

test('every production build refuses the inspector, and the bundle that ships holds no trace of it', async () => {
  // Each of the three production builds (the page, the server's rendering, the desk) checks what it reads.
  for (const config of makeConfig({}, { mode: 'production' })) {
    expect([config.name, config.plugins?.some((plugin) => plugin instanceof NoDevelopmentTools)]).toEqual([config.name, true]);
  }

  // A page whose code imports the inspector unguarded: its production build fails, naming the inspector's files.
  // In the project, so that the import finds node_modules as the page's own code does.
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const fixture = mkdtempSync(path.join(root, '.tmp', 'inspector-entry-'));
  try {
    const entry = path.join(fixture, 'unguarded.js');
    writeFileSync(entry, "import('@statelyai/inspect').then(({ createBrowserInspector }) => createBrowserInspector());\n");
    const unguarded = await build('production', { entry, minimize: false, allowErrors: true });
    expect(inspectorModules(unguarded).length).toBeGreaterThan(0);
    expect(unguarded.errors).toContainEqual(expect.stringMatching(/^A production build must not carry development tools: node_modules\/@statelyai\/inspect\//));
  } finally {
    rmSync(fixture, { recursive: true, force: true });
  }

  const built = await shipped();
  expect([...built.scripts.keys()]).toContainEqual(expect.stringMatching(/^main\.[0-9a-f]{8}\.js$/));
  expect(inspectorTraces(built)).toEqual([]);
}, 240_000);

test('the development bundle carries the inspector, in its own chunk loaded only for ?inspect', async () => {
  const development = await build('development');
  expect(inspectorModules(development).length).toBeGreaterThan(0);
  const traces = inspectorTraces(development);
  // The inspector's own chunk, and the main bundle that loads it on demand.
  expect(traces).toEqual(expect.arrayContaining(['main.js', expect.stringMatching(/statelyai_inspect/)]));
  expect(development.scripts.get('main.js')).toMatch(/\.has\(['"]inspect['"]\)/);
}, 240_000);
