import { createActor, type InspectionEvent, type Observer } from 'xstate';
import type { Dependencies } from './actors/dependencies';
import { keepDraft } from './keepDraft';
import type { ReloadParts } from './reloadParts';
import { pageCode } from './pageCode';
import { apiOnDemand } from './services/apiOnDemand';
import { browserEnvironment, dataLayerAnalytics, logError } from './services/environment';
import { firstAnswers, readInitialData } from './services/initialData';
import { readCsrfToken, readManagerId, readPageConfig, type PageConfig } from './services/pageConfig';
import './views/styles.css';
// The receipt's styles come with the first stylesheet: a paid bill's receipt is in the server's markup, styled at once.
import './views/receipt.css';

declare const __DEV__: boolean;

/** A task of its own for what follows, so that the browser can answer the payer between the page's starting steps. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The composition root: make the services, hand them to the actor factories (src/actors), mount the views. The first
 * scripts are one file, but not one task: evaluating the file runs only this module and the services it imports; the
 * machines (made as their modules run) and React's DOM renderer with the views are in the same file, run each in a task
 * of its own as the checkout starts (`webpackMode: "eager"`: no chunk of their own, nothing more to fetch). One long
 * task would keep a payer's first tap waiting for all of them (Lighthouse's total blocking time).
 */
function start() {
  const config = readPageConfig();
  const initial = readInitialData();
  const api = apiOnDemand(() =>
    Promise.all([import('./services/api'), import('./services/http')]).then(([{ createApi }, { createHttp }]) =>
      createApi({ http: createHttp({ csrfToken: () => readCsrfToken() }), config, managerId: () => readManagerId() }),
    ),
  );
  const env = browserEnvironment(window);
  // The page's chunks of code (pageCode.ts): the machines load each when a state needs it.
  const code = pageCode();
  const deps: Dependencies = {
    api,
    env,
    analytics: dataLayerAnalytics(window),
    log: logError,
    doc: document,
    widgetEnvironment: config.environment,
    first: firstAnswers(initial),
    code,
  };
  // Once the first step is painted, what every payer's Continue needs next comes in the background, each part when the
  // browser is idle: the HTTP client and the way to pay's chunk. Only so that Continue need not wait: the API loads with
  // its first call, and the checkout fetches a chunk when a state needs it, whatever came before.
  const idle = (work: () => void) => (window.requestIdleCallback ? window.requestIdleCallback(work, { timeout: 1000 }) : setTimeout(work, 0));
  const fetchAhead = () => {
    idle(() => void api.preload().catch(() => undefined));
    idle(() => void code.load('paying').catch(() => undefined));
  };

  // The result view mounts on any element with id "result" (mountResult.tsx, a chunk of its own).
  const resultElement = document.getElementById('result');
  if (resultElement) void import('./mountResult').then(({ mountResult }) => mountResult(resultElement, deps, config, initial), logError);

  const rootElement = document.getElementById('root');
  if (rootElement && config.billLink) void mountCheckout(rootElement, config.billLink, deps, config, fetchAhead, initial.rendered);
}

async function mountCheckout(element: HTMLElement, billLink: string, deps: Dependencies, config: PageConfig, fetchAhead: () => void, rendered: string | null) {
  // The checkout starts in a task after the one that evaluated the scripts, its machines made in it.
  await nextTask();
  const { defineAppActor } = await import(/* webpackMode: "eager" */ './actors/app');
  // A reload resumes the step the address bar shows when the server still has it open; 'Попробовать снова' from the
  // result page names the declined order whose choices the bill keeps (and the way to pay instead, if one was chosen).
  const query = new URLSearchParams(window.location.search);
  const resume = {
    resumePath: window.location.hash.startsWith('#/') ? window.location.hash.slice(1) : null,
    retryOrder: query.get('retry'),
    retryWay: query.get('via'),
  };
  const { resumePath } = resume;
  const notResuming: ReloadParts = { draft: null };
  const [parts, inspect] = await Promise.all([
    // A reload on a step: what resuming it needs is a chunk of its own (reloadParts.ts), so no first visit carries it.
    resumePath ? import('./reloadParts').then(({ reloadParts }) => reloadParts(resumePath, deps, billLink), () => notResuming) : notResuming,
    // Development only: the Stately inspector. The production bundle drops this branch and its chunk (the condition must
    // start with __DEV__ for webpack to see the branch is dead).
    __DEV__ && new URLSearchParams(window.location.search).has('inspect') ? import('@statelyai/inspect').then(({ createBrowserInspector }) => createBrowserInspector().inspect) : undefined,
  ]);

  // Back from the bank's card form may show this page as it was left, on its way there: load it again instead, which
  // resumes the step with everything kept (the browser's back-forward cache).
  window.addEventListener('pageshow', (event) => event.persisted && window.location.reload());

  // The step's own code the checkout fetches as it opens (machines/checkout.ts, `opening`).
  const logic = defineAppActor({ ...deps, resume: parts.resumeAfterReload });
  const app = createActor(logic, {
    input: { billLink, isDesktop: deps.env.isDesktop, ...resume, draft: parts.draft },
    ...(inspect ? { inspect: inspect as Observer<InspectionEvent> } : {}),
  }).start();
  // This tab's draft, for a reload: derived from the checkout's snapshot, written here only.
  keepDraft(app, deps.env.tabStorage, billLink);
  // React's DOM renderer and the views, in a task of their own (checkoutRoot.tsx).
  await nextTask();
  const { showCheckout } = await import(/* webpackMode: "eager" */ './checkoutRoot');
  await showCheckout(element, app, rendered, { config, deps, fetchAhead });
}

start();
