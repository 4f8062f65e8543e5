/**
 * Keeps the address bar in step with the checkout (DESIGN §4): a forward step pushes a history entry
 * (`#/choosePaymentType`), the browser's Back sends the same 'back' as the page's Back link.
 */
export interface AddressBarBinding {
  /** Called with the current route path and the depth of the checkout's own history, now and on every change. */
  subscribe(onRoute: (path: string, depth: number) => void): () => void;
  /** Asks the checkout to go one step back. */
  back(): void;
}

export function syncAddressBar(win: Window, binding: AddressBarBinding) {
  let lastDepth = -1;
  let lastPath = '';
  // Browser entries we pushed and have not yet gone back from.
  let pushed = 0;
  let fromBrowser = false;

  const unsubscribe = binding.subscribe((path, depth) => {
    if (path === lastPath && depth === lastDepth) return;
    const hash = `#${path}`;
    if (lastDepth >= 0 && depth > lastDepth) {
      win.history.pushState({ depth }, '', hash);
      pushed++;
    } else if (!fromBrowser) {
      win.history.replaceState({ depth }, '', hash);
    }
    fromBrowser = false;
    lastPath = path;
    lastDepth = depth;
  });

  const onPopState = () => {
    if (lastDepth <= 0) {
      // Nothing to go back to inside the checkout: keep the address bar on the current step.
      win.history.replaceState({ depth: 0 }, '', `#${lastPath}`);
      return;
    }
    pushed = Math.max(0, pushed - 1);
    fromBrowser = true;
    binding.back();
  };
  win.addEventListener('popstate', onPopState);

  return {
    /** The page's Back link: through the browser's history when we own the entry, so both stay aligned. */
    back() {
      if (pushed > 0) win.history.back();
      else binding.back();
    },
    stop() {
      unsubscribe();
      win.removeEventListener('popstate', onPopState);
    },
  };
}
