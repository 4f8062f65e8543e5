import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, InspectionEvent } from 'xstate';

/** A state or a transition of a real machine, named so that two runs (and two `provide()` copies) agree. */
export interface Item {
  machine: string;
  kind: 'state' | 'transition';
  /**
   * `machine:stateId`, or for a transition `machine:sourceId --event [guard] -> targets`: named by what it does, not
   * by its place in the list, so adding or reordering transitions leaves the other keys alone. Only two transitions
   * alike in all of these get a `#n` (their order among the alike ones).
   */
  key: string;
  /** The state node the item belongs to (the state itself, or the transition's source). */
  node: string;
  /** For transitions: the event type ('always' for eventless ones). */
  event?: string;
  /** For transitions: the target state ids. */
  targets?: string[];
  /** For transitions: the guard's name, if any. */
  guard?: string;
}

const stateNodesOf = (node: AnyStateNode): AnyStateNode[] => [node, ...Object.values(node.states).flatMap((child) => stateNodesOf(child))];

/** A guard's name: a named guard's type, `!`/`&`/`|` of named ones as xstate keeps them, an inline function's name. */
function guardName(guard: unknown): string | undefined {
  if (!guard) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const fn = guard as { name?: string; check?: unknown; guards?: unknown[] };
    return fn.name && fn.name !== 'guard' ? fn.name : 'inline';
  }
  if (typeof guard === 'object' && 'type' in (guard as object)) return String((guard as { type: unknown }).type);
  return 'inline';
}

const targetsOf = (t: AnyTransitionDefinition): string[] => (t.target ?? []).map((target: AnyStateNode) => target.id);

/**
 * The event as the key shows it: an invoked actor's done/error by the actor's src (`done:checkEmail`), a delay by
 * its name (`after:resend tick`), so neither depends on the generated invoke ids, which count invokes in order.
 */
function eventName(source: AnyStateNode, event: string): string {
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
  if (done) {
    const invoke = source.invoke.find((definition: { id: string }) => definition.id === done[2]);
    const src = invoke ? (typeof invoke.src === 'string' ? invoke.src : (invoke.src as { id?: string }).id ?? invoke.id) : done[2];
    return `${done[1]}:${src}`;
  }
  const after = /^xstate\.after\.(.+)\.[^ ]*$/.exec(event);
  if (after && event.endsWith(`.${source.id}`)) return `after:${event.slice('xstate.after.'.length, -source.id.length - 1)}`;
  return event;
}

function baseKey(machine: string, source: AnyStateNode, event: string, t: AnyTransitionDefinition) {
  const guard = guardName(t.guard);
  const targets = targetsOf(t);
  return `${machine}:${source.id} --${eventName(source, event)}${guard ? ` [${guard}]` : ''} -> ${targets.length ? targets.join(',') : '(stays)'}`;
}

/** Keys of one node's transitions on one event (or its eventless ones), alike ones told apart by `#n`. */
function keysOfList(machine: string, source: AnyStateNode, event: string, list: readonly AnyTransitionDefinition[]): string[] {
  const seen = new Map<string, number>();
  const bases = list.map((t) => baseKey(machine, source, event, t));
  return bases.map((base) => {
    const alike = bases.filter((other) => other === base).length;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return alike > 1 ? `${base} #${n}` : base;
  });
}

/** Every state (but the root, always active) and every transition of a machine, from its definition. */
export function itemsOf(machine: AnyStateMachine): Item[] {
  const id = machine.root.id;
  const items: Item[] = [];
  for (const node of stateNodesOf(machine.root)) {
    if (node !== machine.root) items.push({ machine: id, kind: 'state', key: `${id}:${node.id}`, node: node.id });
    // `transitions` holds `on`, `after` (xstate.after.*) and invoke/state done and error events; `always` the eventless ones.
    for (const [event, list] of node.transitions) items.push(...transitionItems(id, node, event, list));
    items.push(...transitionItems(id, node, 'always', node.always ?? []));
  }
  return items;
}

function transitionItems(machine: string, node: AnyStateNode, event: string, list: readonly AnyTransitionDefinition[]): Item[] {
  const keys = keysOfList(machine, node, event, list);
  return list.map((t, i) => ({ machine, kind: 'transition' as const, key: keys[i]!, node: node.id, event, targets: targetsOf(t), guard: guardName(t.guard) }));
}

function keyOfTaken(machine: string, t: AnyTransitionDefinition): string | null {
  const source = t.source as AnyStateNode;
  const always = source.always ?? [];
  if (always.includes(t)) return keysOfList(machine, source, 'always', always)[always.indexOf(t)]!;
  const list = source.transitions.get(t.eventType) ?? [];
  const index = list.indexOf(t);
  return index < 0 ? null : keysOfList(machine, source, t.eventType, list)[index]!;
}

/** Records, through the actor system's `inspect` option, which states and transitions of every machine ran. */
export function coverageRecorder() {
  const reached = new Set<string>();
  const markNodes = (machine: string, nodes: readonly AnyStateNode[] | undefined) => {
    for (const node of nodes ?? []) if (node.parent) reached.add(`${machine}:${node.id}`);
  };
  const machineIdOf = (event: InspectionEvent): string | null => {
    const logic = (event.actorRef as unknown as { logic?: { root?: AnyStateNode } }).logic;
    return logic?.root ? logic.root.id : null;
  };
  const inspect = (event: InspectionEvent) => {
    const machine = machineIdOf(event);
    if (!machine) return;
    if (event.type === '@xstate.microstep') {
      for (const t of event._transitions) {
        const key = keyOfTaken(machine, t);
        if (key) reached.add(key);
        // Transient states (entered and left in one step) show only as transition ends.
        markNodes(machine, (t.target ?? []) as AnyStateNode[]);
        markNodes(machine, [t.source as AnyStateNode]);
      }
      markNodes(machine, (event.snapshot as unknown as { _nodes?: AnyStateNode[] })._nodes);
    }
    if (event.type === '@xstate.snapshot') markNodes(machine, (event.snapshot as unknown as { _nodes?: AnyStateNode[] })._nodes);
  };
  return { reached, inspect };
}

/** A flow's share of the real machines: which of their items it must reach. */
export interface FlowScope {
  machines: AnyStateMachine[];
  owns: (item: Item) => boolean;
}

export interface CoverageReport {
  line: string;
  states: { reached: number; total: number };
  transitions: { reached: number; total: number };
  missing: Item[];
}

export function coverageOf(flow: string, scope: FlowScope, reached: ReadonlySet<string>): CoverageReport {
  const owned = scope.machines.flatMap(itemsOf).filter(scope.owns);
  const count = (kind: Item['kind']) => {
    const all = owned.filter((item) => item.kind === kind);
    return { reached: all.filter((item) => reached.has(item.key)).length, total: all.length };
  };
  const states = count('state');
  const transitions = count('transition');
  return {
    line: `model coverage ${flow}: states ${states.reached}/${states.total}, transitions ${transitions.reached}/${transitions.total}`,
    states,
    transitions,
    missing: owned.filter((item) => !reached.has(item.key)),
  };
}
