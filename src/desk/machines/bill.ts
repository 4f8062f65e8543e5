import { assertEvent, assign, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, promiseStub } from '../../machines/stub';
import { problemOf, type DeskProblem } from '../services/http';
import type { BillPage, DeskAction } from '../services/types';
import { paymentActionMachine } from './paymentAction';

export type LinkChannel = 'sms' | 'email';

export interface BillContext {
  objectOID: string;
  page: BillPage | null;
  problem: DeskProblem | null;
  /** The last link sent from this page, or why it was not. */
  link: { channel: LinkChannel; to: string; sent: boolean; problem: DeskProblem | null } | null;
  /** The action open in its dialog: on a payment (its orderId) or on the bill (its objectOID). */
  acting: { subject: string; action: DeskAction } | null;
}

export type BillEvent =
  | { type: 'link.send'; channel: LinkChannel; to: string | null }
  | { type: 'action.open'; subject: string; action: DeskAction }
  | { type: 'retry' };

/**
 * A bill's page: its data from the server, then what a member of staff does there: send the pay link (by SMS or
 * e-mail), or open an action on a payment (a refund, a hold's capture or release) or on the bill (its handover), which
 * runs its own confirmation flow (paymentAction.ts); once done, the page reads the bill again.
 */
export const billMachine = setup({
  types: {
    context: {} as BillContext,
    events: {} as BillEvent,
    input: {} as { objectOID: string },
    children: {} as { action: 'paymentAction' },
    tags: {} as 'busy' | 'failed' | 'sending',
  },
  actors: {
    'load bill': promiseStub<BillPage, string>('load bill'),
    'send link': promiseStub<{ to: string }, { objectOID: string; channel: LinkChannel; to: string | null }>('send link'),
    paymentAction: paymentActionMachine,
  },
  actions: {
    'log error': logErrorStub,
    'keep page': assign((_, params: { page: BillPage }) => ({ page: params.page, problem: null })),
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
    'start link': assign((_, params: { channel: LinkChannel }) => ({ link: { channel: params.channel, to: '', sent: false, problem: null } })),
    'link sent': assign(({ context }, params: { to: string }) => ({ link: { channel: context.link!.channel, to: params.to, sent: true, problem: null } })),
    'link refused': assign(({ context }, params: { error: unknown }) => ({ link: { channel: context.link!.channel, to: '', sent: false, problem: problemOf(params.error) } })),
    'open action': assign((_, params: { subject: string; action: DeskAction }) => ({ acting: { subject: params.subject, action: params.action } })),
    'close action': assign({ acting: null }),
  },
}).createMachine({
  id: 'bill',
  context: ({ input }) => ({ objectOID: input.objectOID, page: null, problem: null, link: null, acting: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        src: 'load bill',
        input: ({ context }) => context.objectOID,
        onDone: { target: 'ready', actions: { type: 'keep page', params: ({ event }) => ({ page: event.output }) } },
        onError: { target: 'failed', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    failed: { tags: 'failed', on: { retry: 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'link.send': { target: 'sending', actions: { type: 'start link', params: ({ event }) => ({ channel: event.channel }) } },
            'action.open': { target: 'acting', actions: { type: 'open action', params: ({ event }) => ({ subject: event.subject, action: event.action }) } },
          },
        },
        sending: {
          tags: 'sending',
          invoke: {
            src: 'send link',
            input: ({ context, event }) => {
              assertEvent(event, 'link.send');
              return { objectOID: context.objectOID, channel: event.channel, to: event.to };
            },
            // Read again either way: the page lists every send, a failed one too.
            onDone: { target: '#bill.refreshing', actions: { type: 'link sent', params: ({ event }) => ({ to: event.output.to }) } },
            onError: { target: '#bill.refreshing', actions: [{ type: 'log error', params: errorOf }, { type: 'link refused', params: ({ event }) => ({ error: event.error }) }] },
          },
        },
        acting: {
          description: 'The action runs its own flow; once it is done or cancelled the page reads the bill again.',
          invoke: {
            id: 'action',
            src: 'paymentAction',
            input: ({ context }) => context.acting!,
            onDone: { target: '#bill.refreshing', actions: 'close action' },
          },
        },
      },
    },
    refreshing: {
      description: 'Reads the bill again, its page still shown.',
      invoke: {
        src: 'load bill',
        input: ({ context }) => context.objectOID,
        onDone: { target: 'ready', actions: { type: 'keep page', params: ({ event }) => ({ page: event.output }) } },
        onError: { target: 'ready', actions: { type: 'log error', params: errorOf } },
      },
    },
  },
});

export type BillActor = ActorRefFrom<typeof billMachine>;
