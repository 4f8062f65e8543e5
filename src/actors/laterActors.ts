import type { WidgetWindow } from '../widget/client';
import { bankWidgetOnDemand } from '../widget/onDemand';
import { defineCodeFlowActors, defineFreeCallActor } from './accountFlows';
import type { Dependencies } from './dependencies';
import { defineOfferActor } from './offer';
import { definePaymentActor } from './payment';
import { definePaymentStatusActor } from './paymentStatus';

/**
 * The checkout's children that no first step runs, with their real effects: the offer, paying, polling the status, the
 * free call and the send-code flows. A chunk of its own, which defineCheckoutActor loads on demand (machines/onDemand.ts).
 */
export function defineLaterActors(deps: Dependencies) {
  const win = deps.doc.defaultView as WidgetWindow | null;
  const made = !deps.widget && deps.widgetEnvironment && win ? bankWidgetOnDemand(win, deps.widgetEnvironment, deps.log) : undefined;
  // The widget's code comes in the background now, as paying's did: Pay does not wait for it.
  made?.preload();
  const widget = deps.widget ?? made;
  return {
    offer: defineOfferActor(deps),
    payment: definePaymentActor({ ...deps, widget }),
    paymentStatus: definePaymentStatusActor(deps),
    freeCall: defineFreeCallActor(deps),
    ...defineCodeFlowActors(deps),
  };
}

export type LaterActors = ReturnType<typeof defineLaterActors>;
