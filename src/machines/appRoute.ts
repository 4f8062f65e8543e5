import type { AddressBarBinding } from '../services/addressBar';
import type { AppActor } from './app';
import { opensThePage } from './checkoutDraft';
import { steps } from './steps';

/**
 * The route the address bar shows (services/addressBar.ts keeps the browser in step with it): the checkout's step and
 * the steps of its history (behind it), from the moment the checkout runs (once the bill is loaded), reported at once
 * and on every change; none for a paid bill, which has no steps. Back asks the checkout to go one step back.
 */
export function appRoute(app: AppActor): AddressBarBinding {
  const checkoutOf = () => app.getSnapshot().children.checkout;
  return {
    subscribe: (onRoute) => {
      let watched: { unsubscribe(): void } | null = null;
      const watch = () => {
        // A paid bill has no steps: the address bar drops the one it showed (a reload after paying on #/sbp).
        if (app.getSnapshot().hasTag('paid')) onRoute(null, []);
        const checkout = checkoutOf();
        if (!checkout || watched) return;
        const report = (snapshot: ReturnType<typeof checkout.getSnapshot>) => {
          // While the page opens on a later step (its code on its way), the address bar keeps the step it named.
          if (opensThePage(snapshot)) return;
          onRoute(steps[snapshot.context.step].path, snapshot.context.history.map((step) => steps[step].path));
        };
        watched = checkout.subscribe(report);
        // The step it starts on, at once: a reload on a step that cannot be restored shows the main route.
        report(checkout.getSnapshot());
      };
      const appSubscription = app.subscribe(watch);
      watch();
      return () => {
        appSubscription.unsubscribe();
        watched?.unsubscribe();
      };
    },
    back: () => checkoutOf()?.send({ type: 'nav.back' }),
  };
}
