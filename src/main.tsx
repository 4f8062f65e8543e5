import { useEffect, useMemo, useRef } from 'react';
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { defineAppActor } from './actors/app';
import type { Dependencies } from './actors/dependencies';
import type { ReloadParts } from './reloadParts';
import type { AppActor } from './machines/app';
import { preloadOnDemand } from './machines/onDemand';
import { nextTask, settled, show } from './mount';
import { apiOnDemand } from './services/apiOnDemand';
import { browserEnvironment, dataLayerAnalytics, logError } from './services/environment';
import { firstAnswers, readInitialData } from './services/initialData';
import { readCsrfToken, readManagerId, readPageConfig, type PageConfig } from './services/pageConfig';
import { CheckoutPage } from './views/CheckoutPage';
import { Reg } from './views/lazyViews';
import { shownView } from './views/shownView';
import './views/styles.css';
// The receipt's styles come with the first stylesheet: a paid bill's receipt is in the server's markup, styled at once.
import './views/receipt.css';

declare const __DEV__: boolean;

/** The composition root: make the services, hand them to the actor factories (src/actors), mount the views. */
function start() {
  const config = readPageConfig();
  const initial = readInitialData();
  const api = apiOnDemand(() =>
    Promise.all([import('./services/api'), import('./services/http')]).then(([{ createApi }, { createHttp }]) =>
      createApi({ http: createHttp({ csrfToken: () => readCsrfToken() }), config, managerId: () => readManagerId() }),
    ),
  );
  const env = browserEnvironment(window);
  const deps: Dependencies = {
    api,
    env,
    analytics: dataLayerAnalytics(window),
    log: logError,
    doc: document,
    widgetEnvironment: config.environment,
    first: firstAnswers(initial),
  };
  // Code the first view does not need comes in the background once it is painted, each part when the browser is idle:
  // the HTTP client, the checkout's children no first step runs (and with paying's, the bank widget's).
  const idle = (work: () => void) => (window.requestIdleCallback ? window.requestIdleCallback(work, { timeout: 1000 }) : setTimeout(work, 0));
  const preload = () => {
    idle(() => void api.preload().catch(() => undefined));
    idle(() => void preloadOnDemand().catch(() => undefined));
  };

  // The result view mounts on any element with id "result" (mountResult.tsx, a chunk of its own).
  const resultElement = document.getElementById('result');
  if (resultElement) void import('./mountResult').then(({ mountResult }) => mountResult(resultElement, deps, config, initial), logError);

  const rootElement = document.getElementById('root');
  if (rootElement && config.objectOID) void mountCheckout(rootElement, config.objectOID, deps, config, preload, initial.rendered);
}

async function mountCheckout(element: HTMLElement, objectOID: string, deps: Dependencies, config: PageConfig, preload: () => void, rendered: string | null) {
  // The checkout starts in a task after the one that evaluated the scripts: two shorter tasks rather than one long one.
  await nextTask();
  // A reload resumes the step the address bar shows when the server still has it open; 'Попробовать снова' from the
  // result page names the declined order whose choices the bill keeps (and the way to pay instead, if one was chosen).
  const query = new URLSearchParams(window.location.search);
  const resume = {
    resumePath: window.location.hash.startsWith('#/') ? window.location.hash.slice(1) : null,
    retryOrder: query.get('retry'),
    retryWay: query.get('via'),
  };
  const { resumePath } = resume;
  const notResuming: ReloadParts = { codeDraft: null, draft: null };
  const [parts, laterCode, inspect] = await Promise.all([
    // A reload on a step: what resuming it needs is a chunk of its own (reloadParts.ts), so no first visit carries it.
    resumePath ? import('./reloadParts').then(({ reloadParts }) => reloadParts(resumePath, deps, objectOID), () => notResuming) : notResuming,
    // A resumed step may run from the start a child no first step does (the QR's polling, the code flow).
    resumePath ? preloadOnDemand().then(() => true, () => false) : false,
    // Development only: the Stately inspector. The production bundle drops this branch and its chunk (the condition must
    // start with __DEV__ for webpack to see the branch is dead).
    __DEV__ && new URLSearchParams(window.location.search).has('inspect') ? import('@statelyai/inspect').then(({ createBrowserInspector }) => createBrowserInspector().inspect) : undefined,
  ]);

  // Back from the bank's card form may show this page as it was left, on its way there: load it again instead, which
  // resumes the step with everything kept (the browser's back-forward cache).
  window.addEventListener('pageshow', (event) => event.persisted && window.location.reload());

  // Without the later steps' code, the checkout starts at the main route rather than resume.
  const logic = defineAppActor({ ...deps, resume: laterCode ? parts.resumeAfterReload : undefined });
  const app = createActor(logic, {
    input: { objectOID, isDesktop: deps.env.isDesktop, ...resume, codeDraft: parts.codeDraft, draft: parts.draft },
    ...(inspect ? { inspect: inspect as Observer<InspectionEvent> } : {}),
  }).start();
  // The root actor runs before React renders, so the first render is the state the page's data puts it in: the step
  // the server rendered, when the page carries the bill's data and the user. Settled first, so that no state change
  // meets the hydration half-way; a page that is still loading then (it asks for what it does not carry, or opens on a
  // step the server does not render) renders on its own in place of the server's loading state.
  if (rendered) {
    // The reg route's view is a chunk of its own: fetched meanwhile (the page hydrates it once it is there).
    if (rendered === 'reg') Reg.preload().catch(() => undefined);
    await settled(app, (state) => !state.hasTag('loading'));
  }
  // Only a settled view is hydrated: an answer still on its way could change it half-way through.
  const view = shownView(app.getSnapshot());
  show(element, <CheckoutRoot app={app} config={config} deps={deps} preload={preload} />, view !== 'loading' && rendered === view);
}

/**
 * The checkout's tree with the address bar bound to its route while mounted; browser Back and the Back link go one step
 * back. The binding is a chunk of its own, bound a moment after the first render: the first step has no history to keep.
 */
function CheckoutRoot({ app, config, deps, preload }: { app: AppActor; config: PageConfig; deps: Dependencies; preload: () => void }) {
  // Until the binding is there (or when its code cannot be had), the Back link asks the checkout itself.
  const backRef = useRef<() => void>(() => app.getSnapshot().children.checkout?.send({ type: 'nav.back' }));

  useEffect(() => {
    let stop: () => void = () => undefined;
    let stopped = false;
    void Promise.all([import('./services/addressBar'), import('./machines/appRoute')]).then(([{ syncAddressBar }, { appRoute }]) => {
      if (stopped) return;
      const binding = syncAddressBar(window, appRoute(app));
      backRef.current = binding.back;
      stop = binding.stop;
    }, logError);
    return () => {
      stopped = true;
      stop();
    };
  }, [app]);

  const page = useMemo(
    () => ({ config, goBack: () => backRef.current(), reload: () => window.location.reload(), bankList: deps, preload }),
    [config, deps, preload],
  );
  return <CheckoutPage app={app} page={page} />;
}

start();
