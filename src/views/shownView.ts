import type { SnapshotFrom } from 'xstate';
import type { AppActor } from '../machines/app';
import { derive, type CheckoutActor } from '../machines/checkout';

type CheckoutSnapshot = SnapshotFrom<CheckoutActor>;

/**
 * What the page shows for the app's state, by name: the loading state (a step's code on its way too), the data error,
 * code that could not be loaded, a paid bill's receipt or the checkout's step. The server renders a view into the page
 * and names it there; the page hydrates that markup only when its own first view has the same name (a reload on a
 * later step's address, which the server cannot see, does not), and renders on its own otherwise.
 */
export function shownView(app: SnapshotFrom<AppActor>): string {
  if (app.hasTag('loading')) return 'loading';
  if (app.hasTag('error')) return 'error';
  if (app.hasTag('code failed')) return 'code failed';
  if (app.hasTag('paid')) return 'paid';
  const checkout = app.children.checkout?.getSnapshot();
  if (!checkout || checkout.hasTag('loading step')) return 'loading';
  return checkout.hasTag('step code failed') ? 'code failed' : stepView(checkout);
}

/**
 * A step's view by name, with what of it this tab's draft can change and the server cannot see (a reload, or the
 * browser's Forward back into the page, brings the draft): the e-mail already given (Continue alone, no e-mail field),
 * points applied, a step to go back to. The server renders a first step without them; the page hydrates that markup
 * only when its own first render has none of them either, and renders on its own otherwise.
 */
function stepView(checkout: CheckoutSnapshot): string {
  const { context } = checkout;
  const marks = [
    derive.emailUsed(context) !== '' && 'e-mail given',
    context.usedPoints > 0 && 'points applied',
    context.history.length > 0 && 'history',
    context.user !== null && 'signed in',
  ].filter((mark): mark is string => mark !== false);
  return [context.step, ...marks].join(':');
}

/** Whether the server renders a view (serverRenderedViews), whatever its marks. */
export const isServerRendered = (view: string) => serverRenderedViews.includes(view.split(':')[0]!);

/**
 * The views the server renders: the first step of either route, a paid bill's receipt and the data error. Any other
 * step a page opens on (a retry's way to pay) renders on the page, as every later step does.
 */
export const serverRenderedViews: readonly string[] = ['guest', 'account', 'paid', 'error'];

/** The result page's view: the outcome its status block shows (views/StatusBlock.tsx), or that no order was named. */
export const resultView = (outcome: string | null) => `result:${outcome ?? 'no order'}`;
