import { createContext, useContext } from 'react';
import { createActorContext } from '@xstate/react';
import { appMachine } from '../machines/app';
import type { CheckoutActor } from '../machines/checkout';
import type { PageConfig } from '../services/pageConfig';
import type { BankListDependencies } from '../actors/bankChoice';

/** The root actor for every view (STYLE: createActorContext, narrow useSelector reads). */
export const AppActor = createActorContext(appMachine);

/** The checkout child of the root actor; present while the app is in `content`. */
export function useCheckoutActor(): CheckoutActor | undefined {
  return AppActor.useSelector((state) => state.children.checkout);
}

export interface PageServices {
  config: PageConfig;
  /** The Back link's action: through the browser history when the address bar owns the entry. */
  goBack: () => void;
  /** Reloads the page (a step whose code failed to load); main.tsx gives the browser's reload. */
  reload?: () => void;
  /** What the fast-payment step's bank list needs; without it the step offers the plain bank-app link. */
  bankList?: BankListDependencies;
  /** Code to fetch in the background once the first step is painted (the bank widget's), as the second step's is. */
  preload?: () => void;
}

export const PageContext = createContext<PageServices | null>(null);

export function usePage(): PageServices {
  const page = useContext(PageContext);
  if (!page) throw new Error('PageContext is not provided');
  return page;
}
