import { useEffect, useRef } from 'react';
import type { CheckoutActor } from '../machines/checkout';
import type { Typed } from '../services/checkoutDraft';

/**
 * Tells the checkout what the payer types into a form, as they type (not on mount: the form starts from it), so that a
 * reload shows it again (services/checkoutDraft.ts).
 */
export function useTypedDraft(actor: CheckoutActor, typed: Typed) {
  const key = JSON.stringify(typed);
  const mounted = useRef(false);
  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    actor.send({ type: 'payer.typed', typed: JSON.parse(key) as Typed });
  }, [actor, key]);
}
