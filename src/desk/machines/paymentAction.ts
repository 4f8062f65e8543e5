import { assign, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, notProvided, promiseStub } from '../../machines/stub';
import { typedKopecks } from '../services/format';
import { problemOf, type DeskProblem } from '../services/http';
import type { DeskAction } from '../services/types';

/** What the staff member asked for, as the confirmation shows it and the server is asked: an amount (null: all). */
export interface ActionRequest {
  amountKopecks: number | null;
  reason: string;
}

export interface PaymentActionContext {
  /** What it is done to: a payment's orderId, or the bill's objectOID for a bill's action (its handover). */
  subject: string;
  action: DeskAction;
  request: ActionRequest;
  /** One per opened dialog: a double press or a retry after a lost answer does it once. */
  idempotencyKey: string;
  problem: DeskProblem | null;
  /** The amount typed is not an amount (the page cannot send it as one). */
  unreadable: boolean;
  done: boolean;
}

export type PaymentActionEvent =
  | { type: 'action.review'; amountText: string; reason: string }
  | { type: 'action.back' }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' };

export interface PerformInput {
  subject: string;
  action: DeskAction;
  request: ActionRequest;
  idempotencyKey: string;
}

/** An amount as typed: empty is "all that is left" (null); undefined when it is not an amount. */
const amountOf = (text: string): number | null | undefined => (text.trim() === '' ? null : typedKopecks(text));

/** The kinds that ask how much first (all when left empty); the others (a release, a handover) go straight to confirming. */
export const asksAmount = (action: DeskAction): boolean => action.kind === 'refund' || action.kind === 'capture';

/**
 * An action a member of staff takes and confirms first: what to do (an amount, a reason) where the kind asks it, then
 * a confirmation that says it in words, then the server. Generic over the action: a payment's refund, a hold's capture
 * and release, a bill's handover, each with its call provided by the composition root (`perform`). A kind that asks
 * nothing has no form: its confirmation is the first step, going back from it cancels, and a refusal is shown on it.
 */
export const paymentActionMachine = setup({
  types: {
    context: {} as PaymentActionContext,
    events: {} as PaymentActionEvent,
    input: {} as { subject: string; action: DeskAction },
    output: {} as { done: boolean },
    tags: {} as 'busy',
  },
  actors: {
    perform: promiseStub<unknown, PerformInput>('perform'),
  },
  actions: {
    'log error': logErrorStub,
    'make idempotency key': () => notProvided('make idempotency key'),
    'read request': assign((_, params: { amountKopecks: number | null; reason: string }) => ({
      request: { amountKopecks: params.amountKopecks, reason: params.reason.trim() },
      unreadable: false,
      problem: null,
    })),
    'mark unreadable': assign({ unreadable: true, problem: null }),
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
    'mark done': assign({ done: true }),
  },
  guards: {
    'is an amount': (_, params: { text: string }) => amountOf(params.text) !== undefined,
    'asks an amount': ({ context }) => asksAmount(context.action),
  },
}).createMachine({
  id: 'paymentAction',
  description: 'What to do, a confirmation in words, then the server: one Idempotency-Key per dialog.',
  context: ({ input }) => ({ subject: input.subject, action: input.action, request: { amountKopecks: null, reason: '' }, idempotencyKey: '', problem: null, unreadable: false, done: false }),
  entry: 'make idempotency key',
  initial: 'starting',
  on: { 'action.cancel': '.cancelled' },
  states: {
    starting: {
      always: [{ guard: 'asks an amount', target: 'editing' }, { target: 'confirming' }],
    },
    editing: {
      on: {
        'action.review': [
          {
            guard: { type: 'is an amount', params: ({ event }) => ({ text: event.amountText }) },
            target: 'confirming',
            actions: { type: 'read request', params: ({ event }) => ({ amountKopecks: amountOf(event.amountText)!, reason: event.reason }) },
          },
          { actions: 'mark unreadable' },
        ],
      },
    },
    confirming: {
      on: { 'action.back': [{ guard: 'asks an amount', target: 'editing' }, { target: 'cancelled' }], 'action.confirm': 'performing' },
    },
    performing: {
      tags: 'busy',
      description: 'No cancelling now: the server may already be doing it.',
      on: { 'action.cancel': {} },
      invoke: {
        src: 'perform',
        input: ({ context }) => ({ subject: context.subject, action: context.action, request: context.request, idempotencyKey: context.idempotencyKey }),
        onDone: { target: 'done', actions: 'mark done' },
        onError: { target: 'starting', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => ({ done: context.done }),
});

export type PaymentActionActor = ActorRefFrom<typeof paymentActionMachine>;
