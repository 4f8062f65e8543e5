/**
 * `npm run charts`: draws every machine of src/machines and the server's money charts (server/lifecycle/) as a Mermaid
 * stateDiagram-v2 in docs/statecharts/, from the machine definitions themselves (never drawn by hand), plus an index
 * README. test/scripts/charts.test.ts fails when the files on disk differ from what this would write, so the diagrams
 * never go stale.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyStateMachine } from 'xstate';
import { lifecycleCharts } from '../server/lifecycle/lifecycles';

export const repoRoot = path.resolve(__dirname, '..');
export const machinesDir = path.join(repoRoot, 'src', 'machines');
export const chartsDir = path.join(repoRoot, 'docs', 'statecharts');

// The shapes we read from XState's state nodes; kept loose so the script survives minor internal changes.
interface Node {
  key: string;
  id: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  states: Record<string, Node>;
  parent?: Node;
  description?: string;
  tags: string[];
  meta?: { route?: { name: string; path: string } };
  config: { initial?: unknown };
  initial?: { target: Node[] };
  transitions: Map<string, Transition[]>;
  always?: Transition[];
  after: { delay: string | number; eventType: string }[];
  invoke: { id: string; src: unknown }[];
}
interface Transition {
  eventType: string | null;
  guard?: unknown;
  target?: Node[];
  source: Node;
}

/** Every exported `…Machine` of src/machines, one per machine id, sorted by id. */
export async function loadMachines(dir: string = machinesDir): Promise<AnyStateMachine[]> {
  const files = readdirSync(dir)
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .sort();
  const found = new Map<string, AnyStateMachine>();
  for (const file of files) {
    const exports = (await import(path.join(dir, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      if (!name.endsWith('Machine') || !isMachine(value)) continue;
      const existing = found.get(value.id);
      if (existing && existing !== value) throw new Error(`Two machines share the id "${value.id}" (${file}: ${name})`);
      found.set(value.id, value);
    }
  }
  return [...found.values()].sort((a, b) => a.id.localeCompare(b.id));
}

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && '__xstatenode' in value;
}

/** Mermaid ids must be unique across the whole diagram: the node's path, with anything unsafe replaced. */
const mermaidId = (node: Node) => node.id.replace(/[^A-Za-z0-9_]/g, '_');

/** Text inside a label: Mermaid reads ';', '#', ':' and quotes as syntax, so they are replaced. */
const text = (value: string) =>
  value
    .replace(/["]/g, "'")
    .replace(/[;#]/g, ' ')
    .replace(/:/g, ' -')
    .replace(/\s+/g, ' ')
    .trim();

function guardLabel(guard: unknown): string {
  if (guard === undefined) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    // XState's higher-order guards are functions carrying their parts: not(…), and([…]), or([…]), stateIn(…).
    const composite = guard as { name: string; guards?: unknown[]; stateValue?: unknown };
    if (composite.guards && composite.name === 'not') return `not ${guardLabel(composite.guards[0])}`;
    if (composite.guards && (composite.name === 'and' || composite.name === 'or')) {
      const isGroup = (part: unknown) => typeof part === 'function' && ['and', 'or'].includes(part.name);
      return composite.guards.map((part) => (isGroup(part) ? `(${guardLabel(part)})` : guardLabel(part))).join(` ${composite.name} `);
    }
    if (composite.name === 'stateIn' && composite.stateValue !== undefined) return `in ${JSON.stringify(composite.stateValue)}`;
    return 'unnamed guard';
  }
  if (typeof guard === 'object' && guard !== null && 'type' in guard) {
    const { type, params } = guard as { type: string; params?: unknown };
    if (params && typeof params === 'object') {
      const values = Object.values(params).filter((v) => ['string', 'number', 'boolean'].includes(typeof v));
      if (values.length > 0) return `${type} (${values.join(', ')})`;
    }
    return type;
  }
  return 'guard';
}

/** What a transition's event is, in words: the event type, or the actor / delay / region that produced it. */
function eventLabel(node: Node, eventType: string): string {
  if (eventType === '') return 'always';
  const invocation = (prefix: string) => node.invoke.find((inv) => eventType === `${prefix}${inv.id}`);
  const done = invocation('xstate.done.actor.');
  if (done) return `done ${String(done.src)}`;
  const failed = invocation('xstate.error.actor.');
  if (failed) return `error ${String(failed.src)}`;
  if (eventType.startsWith('xstate.done.state.')) return 'done';
  // A child started by an action (from logic its chunk brought) ends as an invoked one does.
  const child = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (child) return `${child[1] === 'done' ? 'done' : 'error'} ${child[2]}`;
  const delayed = node.after.find((a) => a.eventType === eventType);
  if (delayed) return typeof delayed.delay === 'number' ? `after ${delayed.delay} ms` : `after ${delayed.delay}`;
  if (eventType === '*') return 'any event';
  return eventType;
}

function transitionsOf(node: Node): { event: string; transition: Transition }[] {
  const list: { event: string; transition: Transition }[] = [];
  for (const [eventType, transitions] of node.transitions) {
    for (const transition of transitions) list.push({ event: eventLabel(node, eventType), transition });
  }
  for (const transition of node.always ?? []) list.push({ event: 'always', transition });
  return list;
}

function stateLabel(node: Node): string {
  const route = node.meta?.route;
  return route ? `${node.key} · ${route.path}` : node.key;
}

/** What a state does besides its transitions: the actors it invokes and its tags. */
function stateNotes(node: Node): string[] {
  const invoked = node.invoke.map((inv) => String(inv.src));
  return [
    node.description,
    invoked.length > 0 ? `invokes ${invoked.join(', ')}` : undefined,
    node.tags.length > 0 ? `tags ${[...node.tags].sort().join(', ')}` : undefined,
  ].filter((note): note is string => !!note);
}

/** A state's name relative to the machine, for lists: "reg.signedIn.editing". */
const relativeName = (node: Node) => node.id.slice(node.id.indexOf('.') + 1);

interface Drawing {
  lines: string[];
  /** Transitions that change no state (they only run actions), listed under the diagram. */
  internal: Set<string>;
}

function drawChildren(parent: Node, depth: number, out: Drawing) {
  const pad = '  '.repeat(depth);
  const children = Object.values(parent.states);
  if (parent.type === 'parallel') {
    children.forEach((region, index) => {
      if (index > 0) out.lines.push(`${pad}--`);
      drawState(region, depth, out);
    });
    return;
  }
  const initial = parent.initial?.target[0];
  if (initial) out.lines.push(`${pad}[*] --> ${mermaidId(initial)}`);
  for (const child of children) drawState(child, depth, out);
}

function drawState(node: Node, depth: number, out: Drawing) {
  const pad = '  '.repeat(depth);
  const id = mermaidId(node);
  const hasChildren = Object.keys(node.states).length > 0;
  const notes = stateNotes(node);
  if (hasChildren) {
    // A composite state cannot carry description lines in Mermaid, so its notes (not its description) join the label.
    const label = [stateLabel(node), ...notes.filter((note) => note !== node.description)].join(' · ');
    out.lines.push(`${pad}state "${text(label)}" as ${id} {`);
    drawChildren(node, depth + 1, out);
    out.lines.push(`${pad}}`);
  } else {
    out.lines.push(`${pad}state "${text(stateLabel(node))}" as ${id}`);
    for (const note of notes) out.lines.push(`${pad}${id} : ${text(note)}`);
  }
  if (node.type === 'final') out.lines.push(`${pad}${id} --> [*]`);
}

function drawTransitions(root: Node, out: Drawing) {
  const anyState = `${mermaidId(root)}__any`;
  let usesAnyState = false;
  const visit = (node: Node) => {
    for (const { event, transition } of transitionsOf(node)) {
      const guard = guardLabel(transition.guard);
      const label = text(guard ? `${event} [${guard}]` : event);
      if (!transition.target || transition.target.length === 0) {
        out.internal.add(`${node === root ? '(any state)' : relativeName(node)} on ${label}`);
        continue;
      }
      // The root cannot be an arrow's source inside its own diagram: its transitions start from "any state".
      const from = node === root ? anyState : mermaidId(node);
      if (node === root) usesAnyState = true;
      for (const target of transition.target) out.lines.push(`  ${from} --> ${mermaidId(target)} : ${label}`);
    }
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(root);
  if (usesAnyState) out.lines.push(`  state "(any state)" as ${anyState}`);
}

/** What a server chart's page says of it besides its diagram: how it is used, and how to watch it in the inspector. */
const serverNote = (machine: AnyStateMachine) => [
  `A chart of the server's money (\`server/lifecycle/${machine.id}.ts\`), used as pure transitions: the database keeps`,
  "each row's state, and the lifecycle writer moves it by this chart with a compare-and-set; the actions are the",
  `effects the writer hands to payments (\`server/payments/moves.ts\`). \`npm run inspect:money -- ${machine.id}\` plays its`,
  'model paths in the Stately inspector.',
  '',
];

/** The Markdown page of one machine: the diagram, then its named effects. */
export function renderMachine(machine: AnyStateMachine, options: { server?: boolean } = {}): string {
  const root = machine.root as unknown as Node;
  const out: Drawing = { lines: ['stateDiagram-v2', '  direction TB'], internal: new Set() };
  drawChildren(root, 1, out);
  drawTransitions(root, out);

  const impl = machine.implementations as {
    actors: Record<string, unknown>;
    actions: Record<string, unknown>;
    guards: Record<string, unknown>;
    delays: Record<string, unknown>;
  };
  const actorLine = ([name, logic]: [string, unknown]) =>
    isMachine(logic) ? `\`${name}\` (machine [${logic.id}](./${logic.id}.md))` : `\`${name}\``;
  const delayLine = ([name, delay]: [string, unknown]) =>
    `\`${name}\` (${typeof delay === 'number' ? `${delay} ms` : 'computed from context'})`;
  const plain = (name: string) => `\`${name}\``;
  const routes: string[] = [];
  const tags = new Set<string>();
  const walk = (node: Node) => {
    if (node.meta?.route) routes.push(`\`${node.key}\` → \`${node.meta.route.path}\``);
    node.tags.forEach((tag) => tags.add(tag));
    Object.values(node.states).forEach(walk);
  };
  walk(root);

  const section = (title: string, items: string[]) => (items.length > 0 ? [`- **${title}:** ${items.join(', ')}`] : []);
  const description = root.description ? [root.description, ''] : [];
  return [
    `# ${machine.id}`,
    '',
    '<!-- Generated by `npm run charts` from the machine definition; do not edit by hand. -->',
    '',
    ...description,
    ...(options.server ? serverNote(machine) : []),
    '```mermaid',
    ...out.lines,
    '```',
    '',
    ...section('Actors', Object.entries(impl.actors).map(actorLine)),
    ...section('Delays', Object.entries(impl.delays).map(delayLine)),
    ...section('Guards', Object.keys(impl.guards).map(plain)),
    ...section('Actions', Object.keys(impl.actions).map(plain)),
    ...section('Tags', [...tags].sort().map(plain)),
    ...section('Routes', routes),
    ...section('Events handled without a change of state', [...out.internal].map(plain)),
    '',
  ].join('\n');
}

export function renderIndex(machines: AnyStateMachine[], serverCharts: readonly AnyStateMachine[] = []): string {
  const line = (machine: AnyStateMachine) => {
    const description = (machine.root as unknown as Node).description;
    return `- [${machine.id}](./${machine.id}.md)${description ? `: ${description}` : ''}`;
  };
  const server =
    serverCharts.length > 0
      ? [
          '',
          "## The server's money",
          '',
          'The charts of `server/lifecycle/`: a payment attempt, a refund and a bill, used by the server as pure transitions',
          '(the database keeps the state; docs/architecture.md says where each event comes from).',
          '',
          ...serverCharts.map(line),
        ]
      : [];
  return [
    '# Statecharts',
    '',
    '<!-- Generated by `npm run charts`; do not edit by hand. -->',
    '',
    'One diagram per machine of `src/machines/`, drawn from the machine definitions themselves. After changing a',
    'machine, run `npm run charts`; `test/scripts/charts.test.ts` fails while a diagram is stale.',
    '',
    ...machines.map(line),
    ...server,
    '',
  ].join('\n');
}

/** File name → content of everything docs/statecharts should hold: the page's machines and the server's money charts. */
export async function renderCharts(dir: string = machinesDir, serverCharts: readonly AnyStateMachine[] = lifecycleCharts): Promise<Map<string, string>> {
  const machines = await loadMachines(dir);
  const taken = serverCharts.filter((chart) => machines.some((machine) => machine.id === chart.id));
  if (taken.length > 0) throw new Error(`A server chart and a page machine share the id ${taken.map((chart) => `"${chart.id}"`).join(', ')}`);
  const files = new Map<string, string>([['README.md', renderIndex(machines, serverCharts)]]);
  for (const machine of machines) files.set(`${machine.id}.md`, renderMachine(machine));
  for (const chart of serverCharts) files.set(`${chart.id}.md`, renderMachine(chart, { server: true }));
  return files;
}

/** Files of docs/statecharts that differ from `expected`, are missing, or should no longer be there. */
export function staleCharts(expected: Map<string, string>, dir: string = chartsDir): string[] {
  let present: string[] = [];
  try {
    present = readdirSync(dir).filter((file) => file.endsWith('.md'));
  } catch {
    // No folder yet: every file is missing.
  }
  const stale = [...expected].filter(([file, content]) => !present.includes(file) || readFileSync(path.join(dir, file), 'utf8') !== content);
  const extra = present.filter((file) => !expected.has(file));
  return [...stale.map(([file]) => file), ...extra].sort();
}

async function main() {
  const files = await renderCharts();
  mkdirSync(chartsDir, { recursive: true });
  for (const file of readdirSync(chartsDir)) {
    if (file.endsWith('.md') && !files.has(file)) rmSync(path.join(chartsDir, file));
  }
  for (const [file, content] of files) writeFileSync(path.join(chartsDir, file), content);
  console.log(`Wrote ${files.size} files to ${path.relative(repoRoot, chartsDir)}/`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
