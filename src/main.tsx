import { StrictMode, useEffect, useMemo, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import type { InspectionEvent, Observer } from 'xstate';
import type { CodeRequest } from './services/types';
import { steps } from './machines/steps';
import { syncAddressBar } from './services/addressBar';
import { createApi } from './services/api';
import { browserEnvironment, dataLayerAnalytics, logError } from './services/environment';
import { createHttp } from './services/http';
import { readCsrfToken, readManagerId, readPageConfig, type PageConfig } from './services/pageConfig';
import { App } from './views/App';
import { AppActor, PageContext } from './views/appContext';
import { bankWidgetOnDemand } from './widget/onDemand';
import { provideApp, providePaymentStatus, type Dependencies } from './wiring';
import './views/styles.css';

declare const __DEV__: boolean;

/** The composition root (DESIGN §3): make the services, provide them to the machines, mount the views. */
function start() {
  const config = readPageConfig();
  const http = createHttp({ csrfToken: () => readCsrfToken() });
  const api = createApi({ http, config, managerId: () => readManagerId() });
  const env = browserEnvironment(window);
  const widget = bankWidgetOnDemand(window, config.environment, logError);
  const deps: Dependencies = {
    api,
    env,
    analytics: dataLayerAnalytics(window),
    log: logError,
    doc: document,
    widget,
  };

  // The result view mounts on any element with id "result" (SPEC §2), with orderId and billOid from the query. Its
  // code is a chunk of its own, so the checkout's first load does not carry it.
  const resultElement = document.getElementById('result');
  if (resultElement) {
    const query = new URLSearchParams(window.location.search);
    void import('./views/ResultPage').then(({ ResultPage }) =>
      createRoot(resultElement).render(
        <StrictMode>
          <ResultPage
            logic={providePaymentStatus(deps)}
            orderId={query.get('orderId')}
            billOid={query.get('billOid')}
            cancelled={query.get('state') === 'return'}
            merchant={config.merchant}
            onReload={() => window.location.reload()}
            returnUrl={config.returnUrl}
          />
        </StrictMode>,
      ),
    );
  }

  const rootElement = document.getElementById('root');
  // The widget's code comes in the background once the first step is painted.
  if (rootElement && config.objectOID) mountCheckout(rootElement, config.objectOID, deps, config, () => widget.preload());
}

function mountCheckout(element: HTMLElement, objectOID: string, deps: Dependencies, config: PageConfig, preload: () => void) {
  const logic = provideApp(deps);
  // A reload resumes the step the address bar shows when the server still has it open; 'Попробовать снова' from the
  // result page names the declined order whose choices the bill keeps (issue 17).
  const resume = {
    resumePath: window.location.hash.startsWith('#/') ? window.location.hash.slice(1) : null,
    retryOrder: new URLSearchParams(window.location.search).get('retry'),
  };

  const render = (codeDraft: CodeRequest | null, inspect?: Observer<InspectionEvent>) =>
    createRoot(element).render(
      <StrictMode>
        <AppActor.Provider logic={logic} options={{ input: { objectOID, isDesktop: deps.env.isDesktop, ...resume, codeDraft }, ...(inspect ? { inspect } : {}) }}>
          <AddressBarRoot config={config} deps={deps} preload={preload} />
        </AppActor.Provider>
      </StrictMode>,
    );

  if (__DEV__ && new URLSearchParams(window.location.search).has('inspect')) {
    // Development only: the Stately inspector. The production bundle drops this branch and its chunk.
    void import('@statelyai/inspect').then(({ createBrowserInspector }) => render(null, createBrowserInspector().inspect));
  } else if (resume.resumePath === steps.checkSendCode.path) {
    // A reload on the code screen: this tab's draft of the step decides where it resumes (issue 17). Its reader is a
    // chunk of its own, so no other first screen carries it; failing to load it only means no draft (the step before).
    void import('./services/codeDraftReader')
      .then(({ readCodeDraft }) => readCodeDraft(deps.env.tabStorage, objectOID))
      .catch(() => null)
      .then((codeDraft) => render(codeDraft));
  } else {
    render(null);
  }
}

/** Binds the address bar to the checkout's route while mounted; browser Back and the Back link go one step back. */
function AddressBarRoot({ config, deps, preload }: { config: PageConfig; deps: Dependencies; preload: () => void }) {
  const app = AppActor.useActorRef();
  const backRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    const checkoutOf = () => app.getSnapshot().children.checkout;
    const binding = syncAddressBar(window, {
      // The checkout runs once the bill is loaded: watch it from then on.
      subscribe: (onRoute) => {
        let watched: { unsubscribe(): void } | null = null;
        const watch = () => {
          // A paid bill has no steps: the address bar drops the one it showed (a reload after paying on #/sbp).
          if (app.getSnapshot().hasTag('paid') && window.location.hash) {
            window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
          }
          const checkout = checkoutOf();
          if (!checkout || watched) return;
          const report = ({ context }: ReturnType<typeof checkout.getSnapshot>) => onRoute(steps[context.step].path, context.history.length);
          watched = checkout.subscribe(report);
          // The step it starts on, at once: a reload on a step that cannot be restored shows the main route (issue 17).
          report(checkout.getSnapshot());
        };
        const appSub = app.subscribe(watch);
        watch();
        return () => {
          appSub.unsubscribe();
          watched?.unsubscribe();
        };
      },
      back: () => checkoutOf()?.send({ type: 'nav.back' }),
    });
    backRef.current = binding.back;
    return () => binding.stop();
  }, [app]);

  const page = useMemo(
    () => ({ config, goBack: () => backRef.current(), reload: () => window.location.reload(), bankList: deps, preload }),
    [config, deps, preload],
  );
  return (
    <PageContext.Provider value={page}>
      <App />
    </PageContext.Provider>
  );
}

start();
