/**
 * `npm run inspect:money -- <chart>` (attempt, refund or bill; attempt by default): opens one of the server's money
 * charts (server/lifecycle/) in the Stately inspector, as `?inspect` does for the page's machines, and plays its model
 * paths there one event a second: the same paths the model tests walk against the server (test/server/lifecycle/).
 * The server never runs these charts as actors; here each path runs on an actor of its own, its effects doing nothing,
 * only for the inspector to draw. A local bridge (`@statelyai/inspect/server`, http://localhost:8080 by default,
 * INSPECT_PORT to change it) embeds stately.ai/inspect and opens it in the browser.
 */
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
  const inspector = createWebSocketInspector({ url: `ws://localhost:${port}` });
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
