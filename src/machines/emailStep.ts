import type { DoneActorEvent } from 'xstate';
import type { CheckoutEvent } from './checkoutContext';

/** The e-mail form and Continue of the account and guest steps. */
export function emailContinueStates() {
  return {
    initial: 'editing' as const,
    states: {
      editing: {
        on: {
          'checkout.continue': [
            { guard: 'is e-mail given' as const, target: 'checkingEmail' as const },
            {
              guard: 'is e-mail known' as const,
              target: '#checkout.opening' as const,
              actions: ['push history' as const, 'clear problem' as const, { type: 'go to' as const, params: { step: 'choosePaymentType' as const } }],
            },
          ],
        },
      },
      checkingEmail: {
        tags: 'busy' as const,
        description: 'The server checks the e-mail; a refusal empties the field and shows "Email некорректен".',
        invoke: {
          src: 'checkEmail' as const,
          input: ({ event }: { event: CheckoutEvent }) => ({ email: event.type === 'checkout.continue' ? (event.email ?? '') : '' }),
          onDone: {
            target: '#checkout.opening' as const,
            actions: [
              { type: 'remember e-mail' as const, params: ({ event }: { event: DoneActorEvent<string> }) => ({ email: event.output }) },
              'push history' as const,
              'clear problem' as const,
              { type: 'go to' as const, params: { step: 'choosePaymentType' as const } },
            ],
          },
          onError: { target: 'editing' as const, actions: 'mark e-mail rejected' as const },
        },
      },
    },
  };
}
