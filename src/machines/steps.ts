import type { Chunk } from './chunks';

/**
 * The checkout's steps, declared once. Each is a state of the checkout (a route is a state) whose
 * `meta.route` comes from here; the checkout builds its 'nav.goTo' and 'nav.back' transitions from this table,
 * the address bar its paths, and the views (src/views/Checkout.tsx) a view for every step, which TypeScript
 * insists on. Adding a step: an entry here, its state in checkout.ts, its view.
 */
export interface StepDefinition {
  /** The route's path, as the address bar shows it. */
  path: string;
  /** The payer opens it by a link or button ('nav.goTo'); the others are reached by the flow itself. */
  openedByPayer: boolean;
  /** It is left forward (history remembers it), so 'Back' can return to it. */
  returnable: boolean;
  /** The chunk its view and children come in (chunks.ts); null: the first scripts carry them. */
  chunk: Chunk | null;
}

export const steps = {
  // The main route: a payer with a loyalty account signs in (account), a guest pays without one (guest). Their paths
  // keep the names the address bar has always shown.
  account: { path: '/reg', openedByPayer: false, returnable: true, chunk: null },
  guest: { path: '/noReg', openedByPayer: false, returnable: true, chunk: null },
  usePoints: { path: '/usePoints', openedByPayer: true, returnable: true, chunk: 'accountFlows' },
  checkSendCode: { path: '/checkSendCode', openedByPayer: false, returnable: true, chunk: 'accountFlows' },
  // The free call ends by a reload or by returning to the main route: nothing comes after it to go back from.
  checkByPhone: { path: '/checkByPhone', openedByPayer: true, returnable: false, chunk: 'accountFlows' },
  choosePaymentType: { path: '/choosePaymentType', openedByPayer: false, returnable: true, chunk: 'paying' },
  // Left only for the result, which replaces it: a settled payment's QR is nothing to go back to.
  sbp: { path: '/sbp', openedByPayer: false, returnable: false, chunk: 'paying' },
  result: { path: '/result', openedByPayer: false, returnable: false, chunk: 'paying' },
  forgotPassword: { path: '/forgot-password', openedByPayer: true, returnable: true, chunk: 'accountFlows' },
  register: { path: '/register', openedByPayer: true, returnable: true, chunk: 'accountFlows' },
} as const satisfies Record<string, StepDefinition>;

export type Step = keyof typeof steps;

type Where<Key extends keyof StepDefinition> = { [S in Step]: (typeof steps)[S][Key] extends true ? S : never }[Step];
export type PayerOpenedStep = Where<'openedByPayer'>;
export type ReturnableStep = Where<'returnable'>;

const stepNames = Object.keys(steps) as Step[];
export const openedByPayer = stepNames.filter((step): step is PayerOpenedStep => steps[step].openedByPayer);
export const returnable = stepNames.filter((step): step is ReturnableStep => steps[step].returnable);

/**
 * The steps a payer asks for: by a link or button, by Back, by Continue (the way to pay, which is returnable). The
 * checkout opens them through its `opening` state, which fetches their code first when it is not here yet; the others
 * (the QR, the result) follow from what the steps before them ran.
 */
export const askedFor = stepNames.filter((step) => steps[step].openedByPayer || steps[step].returnable);

/** The step whose path the address bar shows, if any. */
export const stepAt = (path: string | null | undefined): Step | null => stepNames.find((step) => steps[step].path === path) ?? null;

export interface RouteMeta {
  route: { step: Step; path: string };
}

/** The meta of a step's state: its route, for the address bar, the diagrams and the tests. */
export const route = (step: Step): RouteMeta => ({ route: { step, path: steps[step].path } });
