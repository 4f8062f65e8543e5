import { StrictMode, useEffect, useMemo, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import type { InspectionEvent, Observer } from 'xstate';
import { defineAppActor } from './actors/app';
import type { Dependencies } from './actors/dependencies';
import { definePaymentStatusActor } from './actors/paymentStatus';
import { appRoute } from './machines/appRoute';
import type { ResumeAfterReload } from './machines/checkoutResume';
import { syncAddressBar } from './services/addressBar';
import { createApi } from './services/api';
import { browserEnvironment, dataLayerAnalytics, logError } from './services/environment';
import { createHttp } from './services/http';
import { readCsrfToken, readManagerId, readPageConfig, type PageConfig } from './services/pageConfig';
import type { CheckoutDraft } from './services/checkoutDraft';
import type { CodeRequest } from './services/types';
import { App } from './views/App';
import { AppActor, PageContext } from './views/appContext';
import { bankWidgetOnDemand } from './widget/onDemand';
import './views/styles.css';

declare const __DEV__: boolean;

/** The composition root: make the services, hand them to the actor factories (src/actors), mount the views. */
function start() {
  const config = readPageConfig();
  const http = createHttp({ csrfToken: () => readCsrfToken() });
  const api = createApi({ http, config, managerId: () => readManagerId() });
  const env = browserEnvironment(window);
  const widget = bankWidgetOnDemand(window, config.environment, logError);
  const deps: Dependencies = { api, env, analytics: dataLayerAnalytics(window), log: logError, doc: document, widget };

  // The result view mounts on any element with id "result", with orderId and billOid from the query. Its code is a
  // chunk of its own, so the checkout's first load does not carry it.
  const resultElement = document.getElementById('result');
  if (resultElement) {
    const query = new URLSearchParams(window.location.search);
    void import('./views/ResultPage').then(({ ResultPage }) =>
      createRoot(resultElement).render(
        <StrictMode>
          <ResultPage
            logic={definePaymentStatusActor(deps)}
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
  // A reload resumes the step the address bar shows when the server still has it open; 'Попробовать снова' from the
  // result page names the declined order whose choices the bill keeps (and the way to pay instead, if one was chosen).
  const query = new URLSearchParams(window.location.search);
  const resume = {
    resumePath: window.location.hash.startsWith('#/') ? window.location.hash.slice(1) : null,
    retryOrder: query.get('retry'),
    retryWay: query.get('via'),
  };

  // Back from the bank's card form may show this page as it was left, on its way there: load it again instead, which
  // resumes the step with everything kept (the browser's back-forward cache).
  window.addEventListener('pageshow', (event) => event.persisted && window.location.reload());

  const render = ({ resumeAfterReload, codeDraft, draft }: ReloadParts, inspect?: Observer<InspectionEvent>) =>
    createRoot(element).render(
      <StrictMode>
        <AppActor.Provider
          logic={defineAppActor({ ...deps, resume: resumeAfterReload })}
          options={{ input: { objectOID, isDesktop: deps.env.isDesktop, ...resume, codeDraft, draft }, ...(inspect ? { inspect } : {}) }}
        >
          <AddressBarRoot config={config} deps={deps} preload={preload} />
        </AppActor.Provider>
      </StrictMode>,
    );

  if (__DEV__ && new URLSearchParams(window.location.search).has('inspect')) {
    // Development only: the Stately inspector. The production bundle drops this branch and its chunk.
    void Promise.all([import('@statelyai/inspect'), reloadParts(resume.resumePath, deps, objectOID)]).then(([{ createBrowserInspector }, parts]) =>
      render(parts, createBrowserInspector().inspect),
    );
  } else if (resume.resumePath) {
    void reloadParts(resume.resumePath, deps, objectOID).then((parts) => render(parts));
  } else {
    render({ codeDraft: null, draft: null });
  }
}

interface ReloadParts {
  resumeAfterReload?: ResumeAfterReload;
  codeDraft: CodeRequest | null;
  draft: CheckoutDraft | null;
}

/**
 * A reload on a step: resuming it (machines/checkoutResume.ts) and this tab's drafts of the checkout and of the code
 * step (services/draftReader.ts) are chunks of their own, loaded only then, so that no first visit carries them.
 * Failing to load either only means not resuming: the main route, with nothing kept.
 */
async function reloadParts(resumePath: string | null, deps: Dependencies, objectOID: string): Promise<ReloadParts> {
  const none = { codeDraft: null, draft: null };
  if (!resumePath) return none;
  const [resumeAfterReload, drafts] = await Promise.all([
    import('./machines/checkoutResume').then(({ resumeAfterReload }) => resumeAfterReload).catch(() => undefined),
    import('./services/draftReader')
      .then(({ readCodeDraft, readCheckoutDraft }) => ({ codeDraft: readCodeDraft(deps.env.tabStorage, objectOID), draft: readCheckoutDraft(deps.env.tabStorage, objectOID) }))
      .catch(() => none),
  ]);
  return { resumeAfterReload, ...drafts };
}

/** Binds the address bar to the checkout's route while mounted; browser Back and the Back link go one step back. */
function AddressBarRoot({ config, deps, preload }: { config: PageConfig; deps: Dependencies; preload: () => void }) {
  const app = AppActor.useActorRef();
  const backRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    const binding = syncAddressBar(window, appRoute(app));
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
