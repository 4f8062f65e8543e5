import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useSelector } from './useSelector';
import type { AppActor as AppActorRef } from '../machines/app';
import type { CheckoutActor } from '../machines/checkout';
import type { PageConfig } from '../services/pageConfig';
import type { BankListDependencies } from '../actors/bankChoice';
import type { ChunkViews } from './chunkViews';

const AppActorContext = createContext<AppActorRef | null>(null);

function useAppActorRef(): AppActorRef {
  const actor = useContext(AppActorContext);
  if (!actor) throw new Error('AppActor.Provider is not around this view');
  return actor;
}

type AppSnapshot = ReturnType<AppActorRef['getSnapshot']>;

/**
 * The root actor for every view, read with narrow useSelector reads as createActorContext's are. The Provider takes the
 * actor already running rather than making it: the composition root starts it before React renders, so a page the
 * server rendered is hydrated with the step the server showed (the bill's data resolves from what the page carries),
 * not with the loading state an actor started after the first render would still be in.
 */
export const AppActor = {
  Provider: ({ value, children }: { value: AppActorRef; children: ReactNode }) => createElement(AppActorContext.Provider, { value }, children),
  useActorRef: useAppActorRef,
  useSelector: <T>(selector: (snapshot: AppSnapshot) => T, compare?: (a: T, b: T) => boolean): T => useSelector(useAppActorRef(), selector, compare),
};

/** The checkout child of the root actor; present while the app is in `content`. */
export function useCheckoutActor(): CheckoutActor | undefined {
  return AppActor.useSelector((state) => state.children.checkout);
}

export interface PageServices {
  config: PageConfig;
  /** The Back link's action: through the browser history when the address bar owns the entry. */
  goBack: () => void;
  /** Reloads the page (a step that failed to render); main.tsx gives the browser's reload. */
  reload?: () => void;
  /** What the fast-payment step's bank list needs; without it the step offers the plain bank-app link. */
  bankList?: BankListDependencies;
  /** The views the page's chunks of code have brought (the states that show them are entered once they are here). */
  views: ChunkViews;
}

export const PageContext = createContext<PageServices | null>(null);

export function usePage(): PageServices {
  const page = useContext(PageContext);
  if (!page) throw new Error('PageContext is not provided');
  return page;
}
