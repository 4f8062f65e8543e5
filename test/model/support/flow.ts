import { cleanup } from '@testing-library/react';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, InspectionEvent } from 'xstate';
import { renderPage, settle, type Page, type PageOptions } from './app';
import { coverageOf, coverageRecorder, type FlowScope } from './coverage';
import { checkSight } from './screen';
import { modelServer, type ModelServer } from './server';
import { pathsOf, type ModelPath } from './paths';
import { describeSight, sightsOf } from './sights';

export { pathsOf, type ModelPath };

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

/** A check only the jsdom run makes (what it recorded: navigations, requests, time), beside the model's sights. */
export type ScreenCheck = (session: Session) => void | Promise<void>;

export interface ModelFlow<TModel extends AnyStateMachine> {
  flow: string;
  /** The pure model (test/model/models/): payer actions and server answers as events, each state's meta.sees what the payer sees. */
  model: TModel;
  /** Extra jsdom-only checks by model state id (`model.state`), run after that state's sights. */
  checks?: Record<string, ScreenCheck>;
  /** Which states and transitions of the real machines this flow must reach. */
  scope: FlowScope;
  /** Simple paths too (every acyclic route), for models small enough. */
  simplePaths?: boolean;
  /** Performs a model event: opening the page, a click or typing, a scripted server answer, time passing. */
  events: Record<string, (session: Session, event: EventObject) => Promise<void>>;
}

/** Checks the sights of every active model state (leaves last, so the most specific screen is checked), then the flow's own checks. */
async function checkScreen(snapshot: AnyMachineSnapshot, session: Session, checks: Record<string, ScreenCheck> = {}) {
  for (const sight of sightsOf(snapshot)) {
    await checkSight(session, sight).catch((error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error));
      e.message = `the payer should see ${describeSight(sight)}\n${e.message}`;
      throw e;
    });
  }
  for (const id of Object.keys(snapshot.getMeta())) await checks[id]?.(session);
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
  await checkScreen(snapshot, session, flow.checks).catch(fail);
  for (const { event, state } of path.steps) {
    at = event.type;
    const perform = flow.events[event.type];
    if (!perform) fail(new Error(`no way to perform model event ${event.type}`));
    await perform!(session, event).catch(fail);
    await settle();
    snapshot = state;
    await checkScreen(snapshot, session, flow.checks).catch(fail);
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

  // The paths walked to their end in this file: the coverage test walks the others itself, so that it proves the same
  // whichever tests ran before it (all of them, some picked by name, or none).
  const walked = new Set<string>();
  const walkPath = async (path: ModelPath) => {
    // Only the machines' clocks are fake; I/O (streams, microtasks) stays real so answers arrive.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    await walk(flow, path, server, recorder.inspect);
    walked.add(path.name);
  };

  describe(`model paths of ${flow.flow}`, () => {
    for (const path of paths) test(path.name, () => walkPath(path));

    test(`every state and transition of the real machines in ${flow.flow} is reached by some path`, async () => {
      for (const path of paths.filter((p) => !walked.has(p.name))) {
        await walkPath(path);
        cleanup();
        await settle(3);
        jest.useRealTimers();
        server.reset();
      }
      const report = coverageOf(flow.flow, flow.scope, recorder.reached);
      console.log(report.line);
      expect(report.missing.map((item) => item.key)).toEqual([]);
      // Alone, it walks every path: as long as the whole file, on a busy machine.
    }, 600_000);
  });
  return { paths, recorder };
}
