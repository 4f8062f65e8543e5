/**
 * Model-based tests of the money's charts (server/lifecycle/), as the page's flows are (docs/model-based-tests.md): the
 * chart is the model. Its paths come from xstate's graph tools, one shortest path to every transition (every event of
 * `samples` in every state that takes it: one of each kind its guards tell apart), and each path is driven against the
 * real server with the sandbox acquirer by an adapter that makes each event happen as it happens in production. After
 * each step the row must be in the path's state; at the end the server's own count of the moves it made (its metrics)
 * must reach every state and transition of the chart: `model coverage <chart>: states N/N, transitions M/M`.
 */
import type { FastifyInstance } from 'fastify';
import type { AnyStateMachine, EventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { storedName } from '../../../server/lifecycle/chart';
import { coverageOf, itemsOf, type CoverageReport } from '../../model/support/coverage';
import { parsePrometheusText, type Family } from '../../support/prometheusText';

/** An event of the model, with the words a path's name shows for it. */
export interface Sample<E extends EventObject> {
  event: E;
  label: string;
}

export interface ChartStep<E extends EventObject> {
  event: E;
  label: string;
  /** The state the row must be in once this event has happened. */
  state: string;
}

export interface ChartPath<E extends EventObject> {
  name: string;
  steps: ChartStep<E>[];
}

/**
 * One shortest path to every transition of the chart between two stored states (each state left by each event it
 * takes). `never`: what the server never does although the chart would take it (said with its reason where given).
 */
export function chartPaths<E extends EventObject>(chart: AnyStateMachine, samples: Sample<E>[], never: (state: string, event: E) => boolean = () => false): ChartPath<E>[] {
  const labelOf = (event: EventObject) => samples.find((sample) => JSON.stringify(sample.event) === JSON.stringify(event))?.label ?? event.type;
  const model = createTestModel(chart, {
    events: samples.map((sample) => sample.event),
    filterEvents: (snapshot, event) => !never(storedName((snapshot as { value: unknown }).value), event as E),
    // A vertex per transition taken (the state left, the event, the state entered): the shortest path to each covers it.
    serializeState: (snapshot, event, previous) =>
      JSON.stringify([previous ? (previous as { value: unknown }).value : null, event ?? null, (snapshot as { value: unknown }).value]),
  });
  return model.getShortestPaths().map((path) => {
    const steps = path.steps
      .filter((step) => step.event.type !== 'xstate.init')
      .map((step) => ({ event: step.event as E, label: labelOf(step.event), state: storedName((step.state as { value: unknown }).value) }));
    return { name: steps.length > 0 ? steps.map((step) => step.label).join(' → ') : '(start)', steps };
  });
}

/**
 * Walks a path against the server: the row starts in the chart's first state (`stateOf` answers null when the path's
 * first event is what makes the row), then `perform` makes the events happen from the step it is given (it may make
 * several at once when one thing the payer or the acquirer does is all of them; it answers how many), and the row must
 * then be in the state of the last of them.
 */
export async function walk<E extends EventObject, W>(
  path: ChartPath<E>,
  first: string,
  adapter: { start(path: ChartPath<E>): Promise<W>; perform(world: W, steps: ChartStep<E>[], at: number): Promise<number>; stateOf(world: W): Promise<string | null> },
): Promise<W> {
  const world = await adapter.start(path);
  const initial = await adapter.stateOf(world);
  // No row yet (null) when the path's first event is what makes it; a row there is in the chart's first state.
  expect({ at: '(start)', state: initial }).toEqual({ at: '(start)', state: initial === null ? null : first });
  for (let at = 0; at < path.steps.length; ) {
    const made = await adapter.perform(world, path.steps, at);
    at += made;
    const step = path.steps[at - 1]!;
    expect({ at: path.steps.slice(0, at).map((s) => s.label).join(' → '), state: await adapter.stateOf(world) }).toEqual({
      at: path.steps.slice(0, at).map((s) => s.label).join(' → '),
      state: step.state,
    });
  }
  return world;
}

/** The moves a server (a process) has counted, by their labels. */
export type MoveCounts = Map<string, number>;

const moveKey = (labels: Record<string, string>) => JSON.stringify([labels.chart, labels.from, labels.event, labels.guard, labels.to]);

/** The moves of the money's charts a server has made so far, as its /metrics tells them. */
export async function movesCounted(app: FastifyInstance): Promise<MoveCounts> {
  const answer = await app.inject({ method: 'GET', url: '/metrics' });
  const families: Map<string, Family> = parsePrometheusText(answer.body);
  const counts: MoveCounts = new Map();
  for (const sample of families.get('checkout_lifecycle_moves_total')?.samples ?? []) counts.set(moveKey(sample.labels), sample.value);
  return counts;
}

/** What `after` counts beyond `before`: the moves made in between. */
export function movesBetween(before: MoveCounts, after: MoveCounts): { chart: string; from: string; event: string; guard: string; to: string }[] {
  return [...after]
    .filter(([key, value]) => value > (before.get(key) ?? 0))
    .map(([key]) => {
      const [chart, from, event, guard, to] = JSON.parse(key) as string[];
      return { chart: chart!, from: from!, event: event!, guard: guard!, to: to! };
    });
}

/**
 * How much of the chart the server's moves reached: a transition is reached when the server took it (from its state
 * or one inside it, on its event, by its guard, into its target); a state, when a move left or entered it (or a state
 * inside it).
 */
export function chartCoverage(chart: AnyStateMachine, moves: ReturnType<typeof movesBetween>): CoverageReport {
  const id = chart.root.id;
  const items = itemsOf(chart);
  // A stored state and the states it is inside: 'registered' → attempt.atAcquirer.registered, attempt.atAcquirer.
  const nodesOf = (name: string) => {
    const node = items.find((item) => item.kind === 'state' && item.node.endsWith(`.${name}`))?.node;
    if (!node) return [];
    const parts = node.split('.');
    return parts.slice(1).map((_, i) => parts.slice(0, i + 2).join('.'));
  };
  const leafOf = (nodeId: string) => nodeId.slice(nodeId.lastIndexOf('.') + 1);
  const mine = moves.filter((move) => move.chart === id);
  const reached = new Set<string>();
  for (const move of mine) for (const node of [...nodesOf(move.from), ...nodesOf(move.to)]) reached.add(`${id}:${node}`);
  for (const item of items) {
    if (item.kind !== 'transition') continue;
    const taken = mine.some(
      (move) =>
        nodesOf(move.from).includes(item.node) &&
        move.event === item.event &&
        move.guard === (item.guard ?? '') &&
        item.targets?.length === 1 &&
        leafOf(item.targets[0]!) === move.to,
    );
    if (taken) reached.add(item.key);
  }
  return coverageOf(id, { machines: [chart], owns: () => true }, reached);
}
