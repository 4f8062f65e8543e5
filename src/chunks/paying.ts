import type { Dependencies } from '../actors/dependencies';
import { defineOfferActor } from '../actors/offer';
import { definePaymentActor } from '../actors/payment';
import { definePaymentStatusActor } from '../actors/paymentStatus';
import type { ChunkLogic } from '../machines/chunks';
import { offerMachine } from '../machines/offer';
import { paymentMachine } from '../machines/payment';
import { paymentStatusMachine } from '../machines/paymentStatus';
import type { WidgetWindow } from '../widget/client';
import { bankWidgetOnDemand } from '../widget/onDemand';
import { ChoosePaymentType } from '../views/ChoosePaymentType';
import { ResultStep } from '../views/ResultStep';
import { Sbp } from '../views/Sbp';

/** The way to pay, the fast payment's QR and the result, with the children they run: the offer, paying, the status polling. */
export const views = { choosePaymentType: ChoosePaymentType, sbp: Sbp, result: ResultStep };

/** The children as their machines define them, their effects stubs (the server's rendering, the statechart tools). */
export const children: ChunkLogic['paying'] = { offer: offerMachine, payment: paymentMachine, paymentStatus: paymentStatusMachine };

/** The children with the page's effects. */
export function defineChildren(deps: Dependencies): ChunkLogic['paying'] {
  const win = deps.doc.defaultView as WidgetWindow | null;
  const made = !deps.widget && deps.widgetEnvironment && win ? bankWidgetOnDemand(win, deps.widgetEnvironment, deps.log) : undefined;
  // The widget client's own code comes in the background now, with paying's: Pay does not wait for it (its first use
  // would load it anyway).
  made?.preload();
  const widget = deps.widget ?? made;
  return { offer: defineOfferActor(deps), payment: definePaymentActor({ ...deps, widget }), paymentStatus: definePaymentStatusActor(deps) };
}
