import type { AppActor } from './machines/app';
import { draftOf, opensThePage } from './machines/checkoutDraft';
import { saveCheckoutDraft, type TabStorage } from './services/checkoutDraft';

/**
 * This tab's draft of the checkout (services/checkoutDraft.ts), kept as the checkout changes: its one writer. Every
 * snapshot of the checkout gives the draft (machines/checkoutDraft.ts), and a draft that changed is written. While the
 * page opens (a reload's step still on its way), the draft it will resume from stays as it is. Returns the stop.
 */
export function keepDraft(app: AppActor, storage: TabStorage | null | undefined, billLink: string): () => void {
  let written = '';
  let watched: { checkout: unknown; stop: () => void } | null = null;
  const watch = () => {
    const checkout = app.getSnapshot().children.checkout;
    if (!checkout || watched?.checkout === checkout) return;
    watched?.stop();
    const keep = (snapshot: ReturnType<typeof checkout.getSnapshot>) => {
      if (opensThePage(snapshot)) return;
      const draft = draftOf(snapshot);
      const text = JSON.stringify(draft);
      if (text === written) return;
      written = text;
      saveCheckoutDraft(storage, billLink, draft);
    };
    const subscription = checkout.subscribe(keep);
    watched = { checkout, stop: () => subscription.unsubscribe() };
    keep(checkout.getSnapshot());
  };
  const appSubscription = app.subscribe(watch);
  watch();
  return () => {
    appSubscription.unsubscribe();
    watched?.stop();
  };
}
