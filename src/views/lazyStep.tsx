import { lazy, type ComponentType } from 'react';

/** How long to wait before the one retry of a chunk that failed to load (a phone's flaky network). */
const RETRY_MS = 1500;

/**
 * A view that loads on demand, in its own chunk: the first time it renders, the nearest Suspense shows its fallback
 * until the chunk arrives; once loaded it renders directly, with no Suspense round. `preload` starts the load ahead
 * of need (tests call it so that their renders stay synchronous).
 */
export function lazyStep<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const attempt = () => load().catch(() => new Promise<ComponentType<P>>((resolve) => setTimeout(resolve, RETRY_MS)).then(load));
  const preload = () =>
    (loading ??= attempt().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // Let a later render try again rather than keep the failure forever.
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));

  function Step(props: P) {
    const View = (loaded ?? Lazy) as ComponentType<P>;
    return <View {...props} />;
  }
  return Object.assign(Step, { preload });
}
