/**
 * The server's rendering of the page (built by webpack into dist/server/render.cjs, which server/platform/pages.ts loads):
 * the checkout's first view and the result page's status, rendered from the same data the page then carries, by the
 * same machines and views, so that the page's first render in the browser hydrates this markup instead of replacing it.
 * Nothing here does I/O: the data comes in, markup goes out.
 */
import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static.edge';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { defineLoadCode } from './actors/code';
import { appMachine, type AppActor } from './machines/app';
import { checkoutMachine } from './machines/checkout';
import { firstAnswerIn, paymentStatusMachine } from './machines/paymentStatus';
import { chunkViews, pageCode } from './pageCode';
import { firstAnswers, type InitialData } from './services/initialData';
import { errorTitleOf } from './services/messages';
import type { PageConfig } from './services/pageConfig';
import { CheckoutPage } from './views/CheckoutPage';
import { ResultPageRoot } from './views/ResultPageRoot';
import { outcomeOf, type PaymentStatusActor } from './views/StatusBlock';
import { isServerRendered, resultView, shownView } from './views/shownView';

/** How long the machines may take to settle on the data given (they settle in a few microtasks; this only bounds a bug). */
const SETTLE_MS = 1000;

export interface RenderedPage {
  /** The markup of the mount point. */
  markup: string;
  /** The view it shows (views/shownView.ts), which the page compares with its own first view before hydrating. */
  view: string;
  /** The page's title when the view has its own (the data error's), else null. */
  title: string | null;
}

export interface CheckoutPageInput {
  config: PageConfig;
  billLink: string;
  /** The declined order of 'Попробовать снова' the link named, if any (the bill data was read with it). */
  retryOrder: string | null;
  /** The answers the page will carry: the bill data, and the user when the server can know it. */
  initial: Omit<InitialData, 'rendered'>;
}

const nothing = () => undefined;

/**
 * The markup of `tree`. React's edge build, not its Node build: the Node build runs its work inside an
 * AsyncLocalStorage, and on Node 20 the first one run switches async hooks on for every promise of the server, for
 * good (about a sixth of a status poll's CPU). The edge build uses one only where a global AsyncLocalStorage exists,
 * which Node 20 has not; its web stream is read whole here.
 */
async function html(tree: ReactNode): Promise<string> {
  const { prelude } = await prerender(tree);
  return new Response(prelude).text();
}

/**
 * The page's chunks of code, as the machines and views ask for them (all in this one file: they come at once). The
 * children run as their machines define them: the server's rendering does no I/O.
 */
const code = pageCode();
const loadCode = defineLoadCode(code, (_, module) => module.children);
const views = chunkViews(code);

/** The first view settled: the app has left loading, and the checkout has the code of the step it opens on. */
async function firstView(app: AppActor) {
  await waitFor(app, (state) => !state.hasTag('loading'), { timeout: SETTLE_MS });
  const checkout = app.getSnapshot().children.checkout;
  if (checkout) await waitFor(checkout, (state) => !state.hasTag('loading step'), { timeout: SETTLE_MS });
  return app.getSnapshot();
}

/**
 * The checkout's page: the app machine run on the data given until it has left loading, as the page's own run will, and
 * rendered when its view is one the server renders (serverRenderedViews); any other (or a user the server cannot know)
 * renders the loading state, which is what the page's own first render shows.
 */
export async function renderCheckout({ config, billLink, retryOrder, initial }: CheckoutPageInput): Promise<RenderedPage> {
  const first = firstAnswers({ ...initial, rendered: null });
  let title: string | null = null;
  const logic = appMachine.provide({
    actors: {
      loadBill: fromPromise(() => first.bill() ?? Promise.reject(new Error('no bill data to render'))),
      loadUser: fromPromise(() => first.user() ?? Promise.reject(new Error('the user is not known here'))),
      logout: fromPromise<void, void>(async () => undefined),
      loadCode,
      checkout: checkoutMachine.provide({ actors: { loadCode } }),
    },
    actions: {
      'show data error title': ({ context }) => void (title = errorTitleOf(context.closedAs)),
      'track sign-in': nothing,
      'log error': nothing,
    },
  });
  const input = { billLink, isDesktop: false, resumePath: null, retryOrder };
  const page = { config, goBack: nothing, views };
  const app = createActor(logic, { input }).start();
  try {
    // No bill data to carry, or the user unknown here: the page asks for them, so its first view is the loading state.
    const settled = initial.bill && 'user' in initial ? await firstView(app) : app.getSnapshot();
    const view = shownView(settled);
    if (isServerRendered(view)) return { markup: await html(<CheckoutPage app={app} page={page} />), view, title };
    const loading = createActor(logic, { input });
    return { markup: await html(<CheckoutPage app={loading} page={page} />), view: 'loading', title: null };
  } finally {
    // Stops the machines the render started, with their children and timers.
    app.stop();
  }
}

export interface ResultPageInput {
  config: PageConfig;
  orderId: string | null;
  billOid: string | null;
  cancelled: boolean;
  /** The status poll's answer the page will carry, when the server has one. */
  initial: Omit<InitialData, 'rendered'>;
}

/** The result page with the status the first poll answers (the server's own answer to it, given here). */
export async function renderResult({ config, orderId, billOid, cancelled, initial }: ResultPageInput): Promise<RenderedPage> {
  const query = { orderId, billOid, cancelled };
  const page = (status: PaymentStatusActor | null) => <ResultPageRoot status={status} query={query} config={config} />;
  if (!orderId || !billOid) return { markup: await html(page(null)), view: resultView(null), title: null };
  const first = firstAnswers({ ...initial, rendered: null });
  const carried = !!initial.status;
  const logic = paymentStatusMachine.provide({
    actors: {
      // The page's own read after the carried answer is the browser's to make: here it never ends, so the render is
      // of the carried answer alone, as the browser's first render will be.
      fetchStatus: fromPromise(() => first.status() ?? (carried ? new Promise<never>(() => undefined) : Promise.reject(new Error('no status to render')))),
      watchVisibility: fromCallback(nothing),
      watchConnection: fromCallback(nothing),
    },
    actions: { 'log poll failure': nothing },
  });
  const status = createActor(logic, { input: { transactionID: orderId, billOID: billOid, firstAnswerCarried: carried } }).start();
  try {
    const answered = carried ? await waitFor(status, (state) => firstAnswerIn(state.context), { timeout: SETTLE_MS }) : status.getSnapshot();
    return { markup: await html(page(status)), view: resultView(outcomeOf(answered, { cancelled })), title: null };
  } finally {
    // The polling's two-minute clock stops with it.
    status.stop();
  }
}
