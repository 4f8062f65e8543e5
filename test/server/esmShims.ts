/*
 * Jest on Node 20 cannot load the ESM-only `cookie` 2.x that light-my-request (behind `app.inject`) requires and
 * @fastify/cookie imports dynamically ("Must use import to load ES Module" / "dynamic import callback was invoked
 * without --experimental-vm-modules"); plain Node 20.19+ loads it fine, so the server itself is unaffected.
 * Until jest.config.ts transforms these two packages (add `cookie|@fastify/cookie` to its esmPackages), this file
 * compiles the *real* packages to CommonJS for the test runtime. Nothing here replaces their behaviour.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import ts from 'typescript';

const root = path.resolve(__dirname, '..', '..');

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

let cookie: unknown;
function realCookie(): unknown {
  cookie ??= loadAsCommonJs(path.join(root, 'node_modules/cookie/dist/index.js'), () => {
    throw new Error('cookie has no dependencies');
  });
  return cookie;
}

jest.mock('cookie', () => realCookie());

jest.mock('@fastify/cookie', () => {
  const file = path.join(root, 'node_modules/@fastify/cookie/index.js');
  const nodeRequire = createRequire(file);
  return loadAsCommonJs(
    file,
    (id) => (id === 'cookie' ? realCookie() : nodeRequire(id)),
    (source) => source.replace("await import('cookie')", "require('cookie')"),
  );
});
