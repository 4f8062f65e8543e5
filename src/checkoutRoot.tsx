import { useEffect, useMemo, useRef } from 'react';
import type { Dependencies } from './actors/dependencies';
import type { AppActor } from './machines/app';
import { settledView, show } from './mount';
import { chunkViews } from './pageCode';
import { logError } from './services/environment';
import type { PageConfig } from './services/pageConfig';
import { CheckoutPage } from './views/CheckoutPage';
import { shownView } from './views/shownView';

interface CheckoutServices {
  config: PageConfig;
  deps: Dependencies;
  /** What to fetch in the background once the first step is painted (main.tsx). */
  fetchAhead: () => void;
}

/**
 * Shows the checkout of a running root actor on the mount point. The root actor runs before React renders, so the first
 * render is the state the page's data puts it in: the step the server rendered (`rendered`), when the page carries the
 * bill's data and the user. Settled first, so that no state change meets the hydration half-way; a page that is still
 * loading then (it asks for what it does not carry, or opens on a step the server does not render) renders on its own
 * in place of the server's loading state.
 */
export async function showCheckout(element: HTMLElement, app: AppActor, rendered: string | null, services: CheckoutServices) {
  if (rendered) await settledView(app);
  // Only a settled view is hydrated: an answer still on its way could change it half-way through.
  const view = shownView(app.getSnapshot());
  show(element, <CheckoutRoot app={app} {...services} />, view !== 'loading' && rendered === view, app);
}

/**
 * The checkout's tree with the address bar bound to its route while mounted; browser Back and the Back link go one step
 * back. The binding is a chunk of its own, bound a moment after the first render: the first step has no history to keep.
 */
function CheckoutRoot({ app, config, deps, fetchAhead }: { app: AppActor } & CheckoutServices) {
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

  // Once the first step is painted: the next frame, then a task of its own.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(fetchAhead);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [fetchAhead]);

  const page = useMemo(
    () => ({ config, goBack: () => backRef.current(), reload: () => window.location.reload(), bankList: deps, views: chunkViews(deps.code) }),
    [config, deps],
  );
  return <CheckoutPage app={app} page={page} />;
}
