import { cleanup } from '@testing-library/react';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, InspectionEvent } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { renderPage, settle, type Page, type PageOptions } from './app';
import { coverageOf, coverageRecorder, type FlowScope } from './coverage';
import { modelServer, type ModelServer } from './server';

/** One path's run: the scripted server, and the page once a model event has opened it. */
export class Session {
  private opened: Page | null = null;
  constructor(
    readonly server: ModelServer,
    readonly inspect: (event: InspectionEvent) => void,
  ) {}
  open(options: Omit<PageOptions, 'inspect'>) {
    this.opened = renderPage({ ...options, inspect: this.inspect });
    return this.opened;
  }
  get page(): Page {
    if (!this.opened) throw new Error('the page is not open yet');
    return this.opened;
  }
}

/** A model state's check of what the payer sees (model machines put it in `meta.test`). */
export type ScreenCheck = (session: Session) => void | Promise<void>;
export interface ModelMeta {
  test: ScreenCheck;
}

export interface ModelFlow<TModel extends AnyStateMachine> {
  flow: string;
  /** The pure model: payer actions and server answers as events, each state's meta.test what the payer sees. */
  model: TModel;
  /** Which states and transitions of the real machines this flow must reach. */
  scope: FlowScope;
  /** Simple paths too (every acyclic route), for models small enough. */
  simplePaths?: boolean;
  /** Performs a model event: opening the page, a click or typing, a scripted server answer, time passing. */
  events: Record<string, (session: Session, event: EventObject) => Promise<void>>;
}

export interface ModelPath {
  name: string;
  /** The model state before the first event. */
  start: AnyMachineSnapshot;
  steps: { event: EventObject; state: AnyMachineSnapshot }[];
}

/** Shortest paths to every model state and transition, plus simple paths when asked; one per distinct event list. */
export function pathsOf<TModel extends AnyStateMachine>(flow: Pick<ModelFlow<TModel>, 'model' | 'simplePaths'>): ModelPath[] {
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

/** Runs the checks of every active model state (leaves last, so the most specific screen is checked). */
async function checkScreen(snapshot: AnyMachineSnapshot, session: Session) {
  const metas = Object.values(snapshot.getMeta() as Record<string, Partial<ModelMeta>>);
  for (const meta of metas) if (meta?.test) await meta.test(session);
}

/** Walks one model path on the rendered page: check the screen, perform the event, check the next screen… */
export async function walk<TModel extends AnyStateMachine>(flow: ModelFlow<TModel>, path: ModelPath, server: ModelServer, inspect: (event: InspectionEvent) => void) {
  const session = new Session(server, inspect);
  let snapshot = path.start;
  let at = '(start)';
  const fail = (error: unknown): never => {
    const e = error instanceof Error ? error : new Error(String(error));
    e.message = `model path ${path.name}\nat ${at}, model state ${JSON.stringify(snapshot.value)}:\n${e.message}`;
    throw e;
  };
  await checkScreen(snapshot, session).catch(fail);
  for (const { event, state } of path.steps) {
    at = event.type;
    const perform = flow.events[event.type];
    if (!perform) fail(new Error(`no way to perform model event ${event.type}`));
    await perform!(session, event).catch(fail);
    await settle();
    snapshot = state;
    await checkScreen(snapshot, session).catch(fail);
  }
  return session;
}

/**
 * Declares the jest tests of a flow: one per generated path, then the coverage check over the real machines,
 * which prints `model coverage <flow>: states X/Y, transitions X/Y` and fails on anything no path reached.
 */
export function describeModelFlow<TModel extends AnyStateMachine>(flow: ModelFlow<TModel>) {
  const server = modelServer();
  const recorder = coverageRecorder();
  const paths = pathsOf(flow);

  beforeAll(() => server.server.listen({ onUnhandledRequest: 'error' }));
  afterEach(async () => {
    cleanup();
    // Let the machines stopped by unmounting finish their last promises before the handlers go.
    await settle(3);
    jest.useRealTimers();
    server.reset();
  });
  afterAll(() => server.server.close());

  describe(`model paths of ${flow.flow}`, () => {
    for (const path of paths) {
      test(path.name, async () => {
        // Only the machines' clocks are fake; I/O (streams, microtasks) stays real so answers arrive.
        jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
        await walk(flow, path, server, recorder.inspect);
      });
    }

    test(`every state and transition of the real machines in ${flow.flow} is reached by some path`, () => {
      const unreachable = flow.scope.unreachable ?? {};
      const report = coverageOf(flow.flow, flow.scope, recorder.reached, new Set(Object.keys(unreachable)));
      console.log(report.line);
      const stale = Object.keys(unreachable).filter((key) => recorder.reached.has(key));
      if (Object.keys(unreachable).length) {
        console.log(`model coverage ${flow.flow}: unreachable from the page:\n${Object.entries(unreachable).map(([key, why]) => `  ${key}: ${why}`).join('\n')}`);
      }
      expect({ missing: report.missing.map((item) => item.key), reachedAfterAll: stale }).toEqual({ missing: [], reachedAfterAll: [] });
    });
  });
  return { paths, recorder };
}
