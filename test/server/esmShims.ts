/*
 * Jest on Node 20 cannot load the ESM-only `cookie` 2.x that light-my-request (behind `app.inject`) requires and
 * @fastify/cookie 11 imports dynamically ("Must use import to load ES Module" / "dynamic import callback was invoked
 * without --experimental-vm-modules"); plain Node 20.19+ loads them fine, so the server itself is unaffected.
 * Until jest.config.ts transforms these two packages (add `cookie|@fastify/cookie` to its esmPackages), this file
 * compiles the *real* installed packages to CommonJS for the test runtime, and only when they need it. Nothing here
 * replaces their behaviour.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import ts from 'typescript';

const rootRequire = createRequire(path.resolve(__dirname, '..', '..', 'package.json'));

function loadAsCommonJs(file: string, resolve: (id: string) => unknown, rewrite: (source: string) => string = (s) => s): unknown {
  const source = rewrite(fs.readFileSync(file, 'utf8'));
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  const module = { exports: {} as unknown };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('module', 'exports', 'require', '__filename', '__dirname', outputText)(module, module.exports, resolve, file, path.dirname(file));
  return module.exports;
}

const isEsm = (file: string) => /^\s*(import|export)\s/m.test(fs.readFileSync(file, 'utf8'));

function cookieFrom(requireFrom: NodeJS.Require): unknown {
  const file = requireFrom.resolve('cookie');
  return isEsm(file) ? loadAsCommonJs(file, (id) => requireFrom(id)) : jest.requireActual(file);
}

let rootCookie: unknown;
jest.mock('cookie', () => (rootCookie ??= cookieFrom(rootRequire)));

jest.mock('@fastify/cookie', () => {
  const file = rootRequire.resolve('@fastify/cookie');
  const source = fs.readFileSync(file, 'utf8');
  const pluginRequire = createRequire(file);
  // Jest's createRequire honours these very mocks, so the untouched package comes through requireActual.
  if (!source.includes("import('cookie')")) return jest.requireActual(file);
  return loadAsCommonJs(
    file,
    (id) => (id === 'cookie' ? cookieFrom(pluginRequire) : pluginRequire(id)),
    (text) => text.replace("await import('cookie')", "require('cookie')"),
  );
});
