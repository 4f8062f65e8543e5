import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

// The import boundaries between the layers (eslint.config.js), checked on text as if it were in each layer. Type-aware rules are switched off
// here: they need the whole program, which `npm run lint` builds, and these rules need none of it.
// The config is passed in rather than found: ESLint loads config files by dynamic import, which jest's VM refuses.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require('../../eslint.config.js') as Linter.Config[];
const eslint = new ESLint({
  cwd: path.resolve(__dirname, '../..'),
  overrideConfigFile: true,
  overrideConfig: [...config, tseslint.configs.disableTypeChecked, { languageOptions: { parserOptions: { projectService: false } } }],
});

async function restrictedImports(file: string, source: string) {
  const [result] = await eslint.lintText(source, { filePath: file });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test.each([
  ['src/machines/app.ts', "import { App } from '../views/App';\nexport const view = App;\n"],
  ['src/machines/new/flow.ts', "import * as views from '../../views';\nexport const all = views;\n"],
  ['src/services/api.ts', "import { appMachine } from '../machines/app';\nexport const root = appMachine;\n"],
  ['src/services/format.ts', "import { Sbp } from '../views/Sbp';\nexport const sbp = Sbp;\n"],
])('%s may not import against the flow views → machines → services', async (file, source) => {
  expect(await restrictedImports(file, source)).toEqual([expect.stringMatching(/never import/)]);
}, 30_000);

test.each([
  ['src/views/Sbp.tsx', "import { derive } from '../machines/checkout';\nimport { formatMoney } from '../services/format';\nexport const both = [derive, formatMoney];\n"],
  ['src/machines/app.ts', "import { messages } from '../services/messages';\nexport const m = messages;\n"],
])('%s may import downstream', async (file, source) => {
  expect(await restrictedImports(file, source)).toEqual([]);
}, 30_000);

test("views, the page's and the desk's, read actors with one useSelector, never @xstate/react's", async () => {
  expect(await restrictedImports('src/views/Sbp.tsx', "import { useSelector } from '@xstate/react';\nexport const s = useSelector;\n")).toEqual([expect.stringMatching(/one useSelector/)]);
  expect(await restrictedImports('src/desk/views/BillView.tsx', "import { useSelector } from '@xstate/react';\nexport const s = useSelector;\n")).toEqual([expect.stringMatching(/one useSelector/)]);
  expect(await restrictedImports('src/views/Sbp.tsx', "import { useSelector } from './useSelector';\nimport { useActorRef } from '@xstate/react';\nexport const s = [useSelector, useActorRef];\n")).toEqual([]);
}, 30_000);

async function problems(file: string, source: string) {
  const [result] = await eslint.lintText(source, { filePath: file });
  return result!.messages.map((m) => m.message);
}

test.each([
  ['a sibling folder', "import { messages } from '../messages';\nexport const m = messages;\n"],
  ['a package', "import ky from 'ky';\nexport const k = ky;\n"],
  ['a scoped package', "import { useSelector } from '@xstate/react';\nexport const s = useSelector;\n"],
  ['a node module', "import path from 'node:path';\nexport const p = path;\n"],
  ['the browser', 'export const href = () => window.location.href;\n'],
])('src/services/rules/ imports nothing outside itself: not %s', async (_name, source) => {
  expect(await problems('src/services/rules/pricing.ts', source)).toEqual([expect.stringMatching(/rules\/ (imports nothing outside itself|runs on the server too)/)]);
}, 30_000);

test('src/services/rules/ may import its own modules', async () => {
  expect(await problems('src/services/rules/billData.ts', "import type { CodePurpose } from './codePurposes';\nexport type P = CodePurpose;\n")).toEqual([]);
}, 30_000);
