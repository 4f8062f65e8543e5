import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';

type Selected<Actor extends AnyActorRef | undefined> = Actor extends AnyActorRef ? SnapshotFrom<Actor> : undefined;

/** Each actor's snapshot as the page began to hydrate the server's markup (holdForHydration). */
const asHydrated = new WeakMap<AnyActorRef, unknown>();

/**
 * Keeps what the actor and its children are now as the snapshot the page hydrates: the server rendered the markup from
 * that state, and an answer arriving while React hydrates (in slices) must not change what it compares the markup with.
 * React renders the later state right after the hydration commits.
 */
export function holdForHydration(actor: AnyActorRef) {
  const snapshot = actor.getSnapshot() as { children?: Record<string, AnyActorRef | undefined> };
  asHydrated.set(actor, snapshot);
  for (const child of Object.values(snapshot.children ?? {})) if (child) holdForHydration(child);
}

/**
 * An actor's snapshot narrowed by `selector`, as @xstate/react's useSelector gives it (a render only when the selection
 * changes by `compare`; an actor that failed throws its error), on React's own useSyncExternalStore. The one
 * useSelector of the page and of the desk: every view reads its actors with it, so no script carries @xstate/react's
 * selector and its shim (initialJsGzipBytes in docs/benchmarks.md). While hydrating, it reads the snapshot held as
 * hydration began.
 */
export function useSelector<Actor extends AnyActorRef | undefined, T>(
  actor: Actor,
  selector: (snapshot: Selected<Actor>) => T,
  compare: (a: T, b: T) => boolean = Object.is,
): T {
  const subscribe = useCallback(
    (changed: () => void) => {
      if (!actor) return () => undefined;
      const subscription = actor.subscribe({ next: changed, error: changed });
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  // The last selection, kept while the snapshot and the selector are the same, or while `compare` finds it equal: React
  // asks for the value more than once per render and must get the same one.
  const last = useRef<{ snapshot: unknown; selector: unknown; selected: T } | null>(null);
  const selectFrom = (snapshot: Selected<Actor>) => {
    if ((snapshot as { status?: string } | undefined)?.status === 'error') throw (snapshot as { error: unknown }).error;
    const kept = last.current;
    if (kept && kept.snapshot === snapshot && kept.selector === selector) return kept.selected;
    const fresh = selector(snapshot);
    const selected = kept && compare(kept.selected, fresh) ? kept.selected : fresh;
    last.current = { snapshot, selector, selected };
    return selected;
  };
  const live = () => selectFrom(actor?.getSnapshot() as Selected<Actor>);
  // On the server nothing is held: it renders the actor as it is.
  const hydrated = () => selectFrom((actor && asHydrated.has(actor) ? asHydrated.get(actor) : actor?.getSnapshot()) as Selected<Actor>);
  return useSyncExternalStore(subscribe, live, hydrated);
}
