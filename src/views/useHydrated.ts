import { useSyncExternalStore } from 'react';

const nothingToWatch = () => () => undefined;

/**
 * False while the server renders a view and while the page hydrates the server's markup, true from the first render
 * the page's own script makes (at once for a view it renders itself). React reads the server's value while hydrating
 * and renders again with the page's right after, so the markup matches and the view then knows its handlers are on.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  );
