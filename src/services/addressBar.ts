/**
 * Keeps the address bar in step with the checkout: a forward step pushes a history entry
 * (`#/choosePaymentType`), the browser's Back sends the same 'back' as the page's Back link. It counts nothing
 * itself: the checkout's history says how deep the payer is, and each browser entry we write carries that depth and
 * its own position in the browser's history, so a 'popstate' says which way the payer went. Bound after the payer
 * has already stepped forward (its code is a chunk loaded a moment after the first render, later on a slow phone), it
 * writes the entries of the steps behind first, so that Back still goes to them rather than leave the page.
 */
export interface AddressBarBinding {
  /**
   * Called with the current route path and the paths of the steps behind it (the checkout's own history: its length
   * is the depth), now and on every change; a null path when the page has no step to show (a paid bill), so the
   * address bar shows none.
   */
  subscribe(onRoute: (path: string | null, behind: readonly string[]) => void): () => void;
  /** Asks the checkout to go one step back. */
  back(): void;
}

/** What an entry of ours holds: the checkout's depth when it was written, and the entry's position. */
interface Entry {
  depth: number;
  index: number;
}

/** The entry on screen, when it is one of ours. */
const entryOf = (win: Window): Partial<Entry> => (win.history.state as Partial<Entry> | null) ?? {};

export function syncAddressBar(win: Window, binding: AddressBarBinding) {
  // The checkout's route as last reported, and the position of the entry that shows it.
  let shown = { path: '', depth: 0 };
  let position = entryOf(win).index ?? 0;
  // A Forward is undone by going back to where the payer was: that traversal's own 'popstate' is ours, not theirs.
  let returning = false;

  const write = (how: 'push' | 'replace', route = shown) => {
    if (how === 'push') position += 1;
    const entry: Entry = { depth: route.depth, index: position };
    if (how === 'push') win.history.pushState(entry, '', `#${route.path}`);
    else win.history.replaceState(entry, '', `#${route.path}`);
  };

  const unsubscribe = binding.subscribe((path, behind) => {
    if (path === null) {
      if (win.location.hash) win.history.replaceState(win.history.state, '', win.location.pathname + win.location.search);
      return;
    }
    shown = { path, depth: behind.length };
    const entry = entryOf(win).depth;
    if (entry === undefined && behind.length > 0) {
      // No entry of ours yet and steps behind already: each step behind gets its entry (the first in place of the
      // page's own), then this step its own, as if the binding had been there from the start.
      behind.forEach((earlier, depth) => write(depth === 0 ? 'replace' : 'push', { path: earlier, depth }));
      write('push');
      return;
    }
    // Deeper than the entry on screen: a step forward, which gets its own entry. Otherwise this entry now shows
    // the route (the first one, a step back, or a step that replaced the one before, like the result after the QR).
    write(entry !== undefined && shown.depth > entry ? 'push' : 'replace');
  });

  const onPopState = () => {
    const to = entryOf(win).index;
    if (returning) {
      returning = false;
      return;
    }
    if (to === undefined) {
      // An entry the payer made (a hash typed in): it shows the step on screen instead.
      write('replace');
      return;
    }
    if (to > position) {
      // Forward to a step the checkout has left: it cannot be redone from here (it needs the server's answer), so
      // the browser goes back to the entry of the step on screen (the address bar never shows another).
      returning = true;
      win.history.go(position - to);
      return;
    }
    const steps = position - to;
    position = to;
    // Back with nothing to go back to inside the checkout: the entry shows the step on screen.
    if (shown.depth <= 0) write('replace');
    // Back, one step or several at once (the browser's history menu): as many steps back in the checkout.
    for (let left = steps; left > 0 && shown.depth > 0; left -= 1) binding.back();
  };
  win.addEventListener('popstate', onPopState);

  return {
    /** The page's Back link: through the browser's history when the entry before is a step we wrote. */
    back() {
      if (shown.depth > 0 && position > 0) win.history.back();
      else binding.back();
    },
    stop() {
      unsubscribe();
      win.removeEventListener('popstate', onPopState);
    },
  };
}
