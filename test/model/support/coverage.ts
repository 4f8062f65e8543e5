import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, InspectionEvent } from 'xstate';

/** A state or a transition of a real machine, named so that two runs (and two `provide()` copies) agree. */
export interface Item {
  machine: string;
  kind: 'state' | 'transition';
  /** `machine:stateId` or `machine:sourceId --event#n` (n: the place among the source's transitions on that event). */
  key: string;
  /** The state node the item belongs to (the state itself, or the transition's source). */
  node: string;
  /** For transitions: the event type ('always' for eventless ones). */
  event?: string;
  /** For transitions: the target state ids. */
  targets?: string[];
}

const stateNodesOf = (node: AnyStateNode): AnyStateNode[] => [node, ...Object.values(node.states).flatMap((child) => stateNodesOf(child))];

const transitionKey = (machine: string, source: AnyStateNode, event: string, index: number) => `${machine}:${source.id} --${event}#${index}`;

/** Every state (but the root, always active) and every transition of a machine, from its definition. */
export function itemsOf(machine: AnyStateMachine): Item[] {
  const id = machine.root.id;
  const items: Item[] = [];
  for (const node of stateNodesOf(machine.root)) {
    if (node !== machine.root) items.push({ machine: id, kind: 'state', key: `${id}:${node.id}`, node: node.id });
    // `transitions` holds `on`, `after` (xstate.after.*) and invoke/state done and error events; `always` the eventless ones.
    for (const [event, list] of node.transitions) list.forEach((t, i) => items.push(transitionItem(id, node, event, i, t)));
    (node.always ?? []).forEach((t, i) => items.push(transitionItem(id, node, 'always', i, t)));
  }
  return items;
}

function transitionItem(machine: string, node: AnyStateNode, event: string, index: number, t: AnyTransitionDefinition): Item {
  return {
    machine,
    kind: 'transition',
    key: transitionKey(machine, node, event, index),
    node: node.id,
    event,
    targets: (t.target ?? []).map((target: AnyStateNode) => target.id),
  };
}

function keyOfTaken(machine: string, t: AnyTransitionDefinition): string | null {
  const source = t.source as AnyStateNode;
  const always = source.always ?? [];
  if (always.includes(t)) return transitionKey(machine, source, 'always', always.indexOf(t));
  const list = source.transitions.get(t.eventType) ?? [];
  const index = list.indexOf(t);
  return index < 0 ? null : transitionKey(machine, source, t.eventType, index);
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
  /** Owned items no page action can reach (dead code), with the reason; reported, not required. */
  unreachable?: Record<string, string>;
}

export interface CoverageReport {
  line: string;
  states: { reached: number; total: number };
  transitions: { reached: number; total: number };
  missing: Item[];
}

export function coverageOf(flow: string, scope: FlowScope, reached: ReadonlySet<string>, known: ReadonlySet<string> = new Set()): CoverageReport {
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
    missing: owned.filter((item) => !reached.has(item.key) && !known.has(item.key)),
  };
}
