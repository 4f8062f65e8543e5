/**
 * `npm run inspect:money -- <chart>` (attempt, refund or bill; attempt by default): opens one of the server's money
 * charts (server/lifecycle/) in the Stately inspector, as `?inspect` does for the page's machines, and plays its model
 * paths there one event a second: the same paths the model tests walk against the server (test/server/lifecycle/).
 * The server never runs these charts as actors; here each path runs on an actor of its own, its effects doing nothing,
 * only for the inspector to draw. A local bridge (`@statelyai/inspect/server`, http://localhost:8080 by default,
 * INSPECT_PORT to change it) embeds stately.ai/inspect and opens it in the browser.
 */
import net from 'node:net';
import { createActor, type AnyStateMachine, type EventObject, type InspectionEvent, type Observer } from 'xstate';
import { lifecycleCharts } from '../server/lifecycle/lifecycles';
import { chartPaths, type Sample } from '../test/server/lifecycle/model';
import { attemptNever, attemptSamples, billSamples, refundSamples } from '../test/server/lifecycle/samples';

/** Each chart with the events its model takes, and what the server never does although the chart would. */
const models: Record<string, { samples: Sample<EventObject>[]; never?: (state: string, event: EventObject) => boolean }> = {
  attempt: { samples: attemptSamples, never: attemptNever as (state: string, event: EventObject) => boolean },
  refund: { samples: refundSamples },
  bill: { samples: billSamples },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether something accepts connections on the port (the bridge gives no word when it listens). */
const listens = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Asks every 20 ms until `check` holds; fails naming `what` after 10 s. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !(await check()); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
  }
}

/** The chart with every effect doing nothing: the actor only shows its states and moves. */
const quiet = (chart: AnyStateMachine) => chart.provide({ actions: Object.fromEntries(Object.keys(chart.implementations.actions).map((name) => [name, () => undefined])) });

/** Plays every model path of `chart` on actors inspected by `inspect`, `paceMs` between events; answers the paths played. */
export async function playPaths(chart: AnyStateMachine, inspect: Observer<InspectionEvent>, paceMs: number): Promise<string[]> {
  const model = models[chart.id];
  if (!model) throw new Error(`no model of the chart ${chart.id}`);
  const paths = chartPaths(chart, model.samples, model.never);
  for (const path of paths) {
    const actor = createActor(quiet(chart), { inspect, id: `${chart.id}: ${path.name}` }).start();
    for (const step of path.steps) {
      await sleep(paceMs);
      actor.send(step.event);
    }
    await sleep(paceMs);
    actor.stop();
  }
  return paths.map((path) => path.name);
}

/** Opens the inspector's bridge on `port` and connects the inspection to it; `stop` closes both. */
export async function inspectorOn(port: number, autoOpen: boolean) {
  const { createInspectorServer } = await import('@statelyai/inspect/server');
  const { createWebSocketInspector } = await import('@statelyai/inspect');
  const bridge = createInspectorServer({ port, autoOpen });
  // The library's client tries a failed connection again every 5 s for ever, even once stopped (a connection closed
  // while still opening fails too): it starts once the bridge listens, and is handed out once it is connected.
  await until(() => listens(port), `the inspector's bridge on port ${port}`);
  const inspector = createWebSocketInspector({ url: `ws://localhost:${port}` });
  // The adapter's status is private in its types, but it is the only word of the connection the library gives.
  const adapter = inspector.adapter as unknown as { status: 'open' | 'closed' };
  await until(() => adapter.status === 'open', "the inspector's connection to its bridge");
  return {
    inspect: inspector.inspect as Observer<InspectionEvent>,
    stop: () => {
      inspector.stop();
      bridge.stop();
    },
  };
}

async function main() {
  const id = process.argv[2] ?? 'attempt';
  const chart = lifecycleCharts.find((candidate) => candidate.id === id);
  if (!chart) throw new Error(`no chart ${id}: ${lifecycleCharts.map((candidate) => candidate.id).join(', ')}`);
  const port = Number(process.env.INSPECT_PORT ?? 8080);
  const inspector = await inspectorOn(port, true);
  console.log(`The ${id} chart in the Stately inspector: http://localhost:${port} (Ctrl-C to stop)`);
  // Time for the browser to open the bridge before the first path starts.
  await sleep(3000);
  for (;;) for (const name of await playPaths(chart, inspector.inspect, 1000)) console.log(`played ${name}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
