/**
 * Keeps the address bar in step with the checkout (DESIGN §4): a forward step pushes a history entry
 * (`#/choosePaymentType`), the browser's Back sends the same 'back' as the page's Back link. It counts nothing
 * itself: the checkout's history says how deep the payer is, and each browser entry we write carries that depth.
 */
export interface AddressBarBinding {
  /** Called with the current route path and the depth of the checkout's own history, now and on every change. */
  subscribe(onRoute: (path: string, depth: number) => void): () => void;
  /** Asks the checkout to go one step back. */
  back(): void;
}

/** The checkout depth an entry of ours shows; undefined for an entry we did not write. */
const depthOf = (win: Window): number | undefined => (win.history.state as { depth?: number } | null)?.depth;

export function syncAddressBar(win: Window, binding: AddressBarBinding) {
  // The checkout's route as last reported, for the browser's Back.
  let shown = { path: '', depth: 0 };

  const unsubscribe = binding.subscribe((path, depth) => {
    shown = { path, depth };
    const entry = depthOf(win);
    // Deeper than the entry on screen: a step forward, which gets its own entry. Otherwise this entry now shows
    // the route (the first one, a step back, or the main route after the history was cleared).
    if (entry !== undefined && depth > entry) win.history.pushState({ depth }, '', `#${path}`);
    else win.history.replaceState({ depth }, '', `#${path}`);
  });

  const onPopState = () => {
    // Nothing to go back to inside the checkout: keep the address bar on the current step.
    if (shown.depth <= 0) win.history.replaceState({ depth: 0 }, '', `#${shown.path}`);
    else binding.back();
  };
  win.addEventListener('popstate', onPopState);

  return {
    /** The page's Back link: through the browser's history when the entry on screen is a step we pushed. */
    back() {
      if ((depthOf(win) ?? 0) > 0) win.history.back();
      else binding.back();
    },
    stop() {
      unsubscribe();
      win.removeEventListener('popstate', onPopState);
    },
  };
}
