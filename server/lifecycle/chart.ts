/**
 * What the money's charts share: a chart is an XState machine used as pure transitions (no actor ever runs on the
 * server). The database keeps each row's state as the name of its state (every state's name is unique in its chart),
 * and `nextMove` answers, from that name and an event, the chart's next state and the effects that follow, or null when
 * the chart refuses the event in that state. The writer (writer.ts) stores the move; the effects are the domain's.
 */
import { transition, type AnyStateMachine, type AnyStateNode, type EventObject } from 'xstate';

/**
 * The default of every effect in a chart's `setup()`: the chart is never run as an actor, so XState never calls it; the
 * writer hands each effect to the domain that does it, in the transaction of the move.
 */
export const doneByTheWriter = (name: string) => () => {
  throw new Error(`${name} is done by the lifecycle writer (server/lifecycle/writer.ts), never by a running actor`);
};

/** The effects a chart names, each with the default above (for `setup({ actions })`). */
export const effectsNamed = <Name extends string>(names: readonly Name[]) =>
  Object.fromEntries(names.map((name) => [name, doneByTheWriter(name)])) as Record<Name, () => never>;

const statesOf = (node: AnyStateNode): AnyStateNode[] => [node, ...Object.values(node.states).flatMap(statesOf)];

/** Every state of a chart with no state inside it: the names a row may be stored in. */
export const storedStates = (chart: AnyStateMachine): string[] =>
  statesOf(chart.root)
    .filter((node) => node !== chart.root && Object.keys(node.states).length === 0)
    .map((node) => node.key);

/** The chart's snapshot in the state stored as `name`. */
export function snapshotIn(chart: AnyStateMachine, name: string) {
  const node = statesOf(chart.root).find((candidate) => candidate !== chart.root && candidate.key === name && Object.keys(candidate.states).length === 0);
  if (!node) throw new Error(`the ${chart.id} chart has no state ${name}`);
  // A nested state's value is its path: { atAcquirer: 'registered' }.
  const value = node.path.reduceRight<unknown>((inner, key) => (inner === undefined ? key : { [key]: inner }), undefined);
  return chart.resolveState({ value: value as string, context: {} });
}

/** The name a snapshot's state is stored by: its innermost state's. */
export function storedName(value: unknown): string {
  let inner = value;
  while (inner && typeof inner === 'object') inner = Object.values(inner)[0];
  if (typeof inner !== 'string') throw new Error(`not a state value: ${JSON.stringify(value)}`);
  return inner;
}

/** A guard by its name as the chart gives it (the diagrams and the metrics show it); null for none. */
export function guardName(guard: unknown): string | null {
  if (!guard) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'inline';
}

/** One effect a move asks for: its name in the chart and its parameters. */
export interface EffectCall {
  type: string;
  params: unknown;
}

/** A move the chart allows: from where to where, on which event, by which guard, and the effects that follow. */
export interface Move<E extends EventObject = EventObject> {
  from: string;
  to: string;
  event: E;
  guard: string | null;
  effects: EffectCall[];
}

/** The chart's answer to `event` in the state stored as `state`: the move, or null when it refuses the event there. */
export function nextMove<E extends EventObject>(chart: AnyStateMachine, state: string, event: E): Move<E> | null {
  const snapshot = snapshotIn(chart, state);
  const [taken] = chart.getTransitionData(snapshot, event);
  // These charts have no transition without a target: an event either moves a row or is refused.
  if (!taken?.target?.length) return null;
  const [next, actions] = transition(chart, snapshot, event);
  return {
    from: state,
    to: storedName(next.value),
    event,
    guard: guardName(taken.guard),
    effects: actions.filter((action) => !action.type.startsWith('xstate.')).map((action) => ({ type: action.type, params: action.params })),
  };
}

/** Whether the chart tags the state stored as `state` with `tag`. */
export const stateHasTag = (chart: AnyStateMachine, state: string, tag: string): boolean => snapshotIn(chart, state).hasTag(tag);
