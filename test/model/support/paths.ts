import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';

/** One generated path of a model: the events in order and the model state after each (pure, so the browser run uses it too). */
export interface ModelPath {
  name: string;
  /** The model state before the first event. */
  start: AnyMachineSnapshot;
  steps: { event: EventObject; state: AnyMachineSnapshot }[];
}

/** Shortest paths to every model state and transition, plus simple paths when asked; one per distinct event list. */
export function pathsOf(flow: { model: AnyStateMachine; simplePaths?: boolean }): ModelPath[] {
  const testModel = createTestModel(flow.model);
  const found = [...testModel.getShortestPaths(), ...(flow.simplePaths ? testModel.getSimplePaths() : [])];
  const byName = new Map<string, ModelPath>();
  for (const path of found) {
    const steps = path.steps.filter((step) => step.event.type !== 'xstate.init') as ModelPath['steps'];
    const name = steps.length ? steps.map((step) => step.event.type).join(' → ') : '(start)';
    byName.set(name, { name, start: testModel.testLogic.getInitialSnapshot({} as never, undefined) as AnyMachineSnapshot, steps });
  }
  // A path that is the start of a longer one adds nothing the longer one does not check.
  const names = [...byName.keys()];
  return [...byName.values()].filter((path) => !names.some((other) => other !== path.name && other.startsWith(`${path.name} → `)));
}

/** The generated path with this name; fails when the model no longer generates it. */
export function pathNamed(flow: { model: AnyStateMachine; simplePaths?: boolean }, name: string): ModelPath {
  const path = pathsOf(flow).find((candidate) => candidate.name === name);
  if (!path) throw new Error(`the model generates no path ${name}`);
  return path;
}
