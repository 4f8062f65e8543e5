import ts from 'typescript';
import { stripStatechartDescriptions } from '../../scripts/stripDescriptions';

const source = `
const note = 'kept';
export const machine = setup({ types: { context: {} as { n: number } }, actors: { load } }).createMachine({
  id: 'm',
  description: 'The whole chart.',
  states: {
    idle: { description: "A state's note", on: { go: 'busy' }, meta: route('idle') },
    busy: { 'description': \`quoted key\`, meta: { description: note } },
  },
});
export const config = { types: 'kept outside setup()' };
export const field = { description: 'x' + note };
`;

const transpile = (fileName: string) =>
  ts.transpileModule(source, { fileName, compilerOptions: { target: ts.ScriptTarget.ES2022 }, transformers: { before: [stripStatechartDescriptions] } }).outputText;

test("a statechart's description texts are dropped from src/machines, the rest of the chart kept", () => {
  const out = transpile('/repo/src/machines/example.ts');
  expect(out).not.toMatch(/The whole chart|A state's note|quoted key/);
  expect(out).toContain("id: 'm'");
  expect(out).toContain("on: { go: 'busy' }");
  // Only plain strings: a description that is computed is someone's data, not a note on the chart.
  expect(out).toContain('meta: { description: note }');
  expect(out).toContain("description: 'x' + note");
});

test("a state's route meta and setup()'s types, which the running page never reads, are dropped too", () => {
  const out = transpile('/repo/src/machines/example.ts');
  expect(out).not.toMatch(/route\('idle'\)|context: \{\}/);
  expect(out).toContain('setup({ actors: { load } })');
  // Any other meta is someone's data, and a `types` outside setup() is not setup's.
  expect(out).toContain('meta: { description: note }');
  expect(out).toContain("types: 'kept outside setup()'");
});

test('files outside src/machines are left as they are', () => {
  const out = transpile('/repo/src/views/example.ts');
  expect(out).toContain("description: 'The whole chart.'");
  expect(out).toContain('description: "A state\'s note"');
});
