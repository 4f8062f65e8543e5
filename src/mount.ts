import { createElement, startTransition, useLayoutEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { waitFor, type AnyActorRef, type SnapshotFrom } from 'xstate';
import type { AppActor } from './machines/app';
import { holdForHydration } from './views/useSelector';

/**
 * Shows a page's tree: hydrates the server's markup when the server rendered the view the page's first render shows,
 * else renders on its own (React replaces whatever the mount point held when it commits). `actor`: the one the tree
 * reads; what it is now is what the hydration compares the markup with, whatever answer comes meanwhile.
 */
export function show(element: HTMLElement, tree: ReactNode, hydrate: boolean, actor: AnyActorRef | null) {
  if (hydrate && actor) holdForHydration(actor);
  const shown = createElement(Shown, { element, how: hydrate ? 'hydrated' : 'rendered' }, tree);
  // As a transition, React hydrates (and renders) in slices that let the browser answer between them, rather than in
  // one long task (Lighthouse's total blocking time).
  startTransition(() => {
    if (hydrate) hydrateRoot(element, shown);
    else createRoot(element).render(shown);
  });
}

/**
 * Marks the mount point once the page's script has taken it over (`data-shown`: hydrated or rendered), from then on
 * answering the payer: the journeys and the benchmark wait for it. Marked as the first render commits, before the
 * effects that fetch what the page needs next (the address bar's binding, the later steps' code).
 */
function Shown({ element, how, children }: { element: HTMLElement; how: string; children?: ReactNode }) {
  useLayoutEffect(() => {
    element.dataset.shown = how;
  }, [element, how]);
  return children;
}

/** How long a page the server rendered waits for its machines to reach its view before rendering on its own instead. */
const SETTLE_MS = 10_000;

/**
 * Waits for an actor to reach the state the page's data puts it in: the answers the page carries resolve its first
 * loads within a few microtasks (an account bill's sign-in form brings its chunk first).
 */
export const settled = <Actor extends AnyActorRef>(actor: Actor, done: (snapshot: SnapshotFrom<Actor>) => boolean): Promise<void> =>
  waitFor(actor, done, { timeout: SETTLE_MS }).then(
    () => undefined,
    () => undefined,
  );

/**
 * Waits for the checkout page's first view: the app has left loading (the bill, the user, a paid bill's receipt code)
 * and the checkout, if it runs, is not fetching the code of the step it opens on.
 */
export async function settledView(app: AppActor): Promise<void> {
  await settled(app, (state) => !state.hasTag('loading'));
  const checkout = app.getSnapshot().children.checkout;
  if (checkout) await settled(checkout, (state) => !state.hasTag('loading step'));
}
