import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importCycles } from '../../scripts/importCycles';

test('the page, the server, the scripts and the benchmarks have no import cycle', () => {
  expect(importCycles(['src', 'server', 'scripts', 'bench'])).toEqual([]);
});

describe('what counts as a cycle', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'cycles-'));
    mkdirSync(path.join(root, 'lib', 'nested'), { recursive: true });
    const write = (file: string, text: string) => writeFileSync(path.join(root, 'lib', file), text);
    write('a.ts', "import { b } from './b';\nexport const a = () => b;\n");
    // Type-only imports count: a reader follows them the same way.
    write('b.ts', "import type { A } from './nested';\nexport const b = 1;\nexport type B = A;\n");
    write('nested/index.ts', "export { a as A } from '../a';\n");
    // A dynamic import is a chunk loaded later, not a cycle; a package is outside the folders.
    write('c.ts', "import 'react';\nexport const load = () => import('./d');\n");
    write('d.ts', "import { load } from './c';\nexport const d = load;\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('static imports and re-exports, type-only ones too; not a dynamic import()', () => {
    expect(importCycles(['lib'], root)).toEqual([[path.join('lib', 'a.ts'), path.join('lib', 'b.ts'), path.join('lib', 'nested', 'index.ts')]]);
  });
});
