import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';

type Selected<Actor extends AnyActorRef | undefined> = Actor extends AnyActorRef ? SnapshotFrom<Actor> : undefined;

/**
 * An actor's snapshot narrowed by `selector`, as @xstate/react's useSelector gives it (a render only when the selection
 * changes by `compare`; an actor that failed throws its error), on React's own useSyncExternalStore. The page's one
 * useSelector: every view reads its actors with it, so no script carries @xstate/react's selector and its shim
 * (initialJsGzipBytes in docs/benchmarks.md).
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
  const select = () => {
    const snapshot = actor?.getSnapshot() as Selected<Actor>;
    if ((snapshot as { status?: string } | undefined)?.status === 'error') throw (snapshot as { error: unknown }).error;
    const kept = last.current;
    if (kept && kept.snapshot === snapshot && kept.selector === selector) return kept.selected;
    const fresh = selector(snapshot);
    const selected = kept && compare(kept.selected, fresh) ? kept.selected : fresh;
    last.current = { snapshot, selector, selected };
    return selected;
  };
  return useSyncExternalStore(subscribe, select, select);
}
