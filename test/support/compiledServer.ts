/**
 * The server compiled to JavaScript once per run, for the child servers the suites start (test/support/childServer.ts).
 *
 * A child started as `node --import tsx server/main.ts` spends about a second before its first line of our code: tsx's
 * loader, then esbuild's transform of each of some 200 files (read back from tsx's cache) as Node asks for them. The
 * suites start some fifty such processes. So the run's global setup does the same transform once, for every file at
 * once, with the same esbuild and the same target, into a folder of the project (bare imports find node_modules as
 * from the sources), with the server's other files (styles, scripts, data) beside them; the children then run the
 * JavaScript. Nothing is bundled: each module keeps its own file and its own `__dirname`, as under tsx.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(__dirname, '..', '..');

/** Names the folder of the run's compiled server, for the workers' child servers; unset outside a run. */
export const COMPILED_SERVER_VARIABLE = 'CHECKOUT_TEST_COMPILED_SERVER';

/** The server's TypeScript and the page's modules it imports (rules, words, the server's rendering's types). */
function sources(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(file);
    }
  };
  walk('server');
  walk('src');
  return found;
}

/** Copies the server's files that are not TypeScript (read at run time beside the module that reads them). */
function copyAssets(dir: string, into: string): void {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(file, into);
    else if (!/\.tsx?$/.test(entry.name)) {
      fs.mkdirSync(path.join(into, dir), { recursive: true });
      fs.copyFileSync(path.join(root, file), path.join(into, file));
    }
  }
}

/**
 * Compiles the server into a folder of its own under .tmp/ and names it in the environment the workers inherit.
 * Returns what removes it. Idempotent within a run: the second project's setup finds the first one's folder.
 */
export async function compileServer(): Promise<() => void> {
  if (process.env[COMPILED_SERVER_VARIABLE]) return () => {};
  const out = path.join(root, '.tmp', `compiled-server-${process.pid}`);
  fs.rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: sources().map((file) => path.join(root, file)),
    outbase: root,
    outdir: out,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    jsx: 'automatic',
    // No source maps: Node reading them (--enable-source-maps) took back half of what compiling saves at each start,
    // and a stack trace in a child's output names the compiled file, which is its source without the types.
    sourcemap: false,
    logLevel: 'warning',
  });
  copyAssets('server', out);
  // CommonJS, as the project's own package.json has it (tsx reads that one for the sources).
  fs.writeFileSync(path.join(out, 'package.json'), '{ "type": "commonjs" }\n');
  process.env[COMPILED_SERVER_VARIABLE] = out;
  return () => {
    delete process.env[COMPILED_SERVER_VARIABLE];
    fs.rmSync(out, { recursive: true, force: true });
  };
}

/**
 * The command that runs a TypeScript entry of the project: its compiled file when the run has compiled the server and
 * the entry is part of it, otherwise the source through tsx.
 */
export function entryCommand(entry: string): string[] {
  const compiled = process.env[COMPILED_SERVER_VARIABLE];
  const js = compiled ? path.join(compiled, entry.replace(/\.tsx?$/, '.js')) : null;
  if (js && fs.existsSync(js)) return [js];
  return ['--import', 'tsx', entry];
}
