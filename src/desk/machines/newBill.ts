import { assertEvent, assign, sendParent, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, notProvided, promiseStub } from '../../machines/stub';
import { problemOf, type DeskProblem } from '../services/http';
import type { BillForm, NewBillBody } from '../services/types';

export interface NewBillContext {
  /** The API's schema of a new bill, and the fiscal defaults of a new position: what the form is built from. */
  form: BillForm | null;
  problem: DeskProblem | null;
  /** One per form: a double submit, or a retry after a lost answer, issues one bill. */
  idempotencyKey: string;
}

export type NewBillEvent = { type: 'bill.submit'; body: NewBillBody } | { type: 'retry' };

/**
 * Issuing a bill: the form's fields come from the merchant API's schema of a new bill; what is typed goes to the
 * server as the API's body, checked there by the one validation the API uses (every field's problem comes back, and
 * sits under its field). Issued, the desk opens the new bill's page.
 */
export const newBillMachine = setup({
  types: {
    context: {} as NewBillContext,
    events: {} as NewBillEvent,
    tags: {} as 'busy' | 'failed',
  },
  actors: {
    'load form': promiseStub<BillForm>('load form'),
    'issue bill': promiseStub<{ objectOID: string }, { body: NewBillBody; idempotencyKey: string }>('issue bill'),
  },
  actions: {
    'log error': logErrorStub,
    'make idempotency key': () => notProvided('make idempotency key'),
    'keep form': assign((_, params: { form: BillForm }) => ({ form: params.form, problem: null })),
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
    'forget problem': assign({ problem: null }),
    'open the bill': sendParent((_, params: { objectOID: string }) => ({ type: 'nav.to', route: { name: 'bill', objectOID: params.objectOID } })),
  },
}).createMachine({
  id: 'newBill',
  context: { form: null, problem: null, idempotencyKey: '' },
  entry: 'make idempotency key',
  initial: 'loadingForm',
  states: {
    loadingForm: {
      tags: 'busy',
      invoke: {
        src: 'load form',
        onDone: { target: 'editing', actions: { type: 'keep form', params: ({ event }) => ({ form: event.output }) } },
        onError: { target: 'failed', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    failed: { tags: 'failed', on: { retry: 'loadingForm' } },
    editing: {
      on: { 'bill.submit': { target: 'issuing', actions: 'forget problem' } },
    },
    issuing: {
      tags: 'busy',
      invoke: {
        src: 'issue bill',
        input: ({ context, event }) => {
          assertEvent(event, 'bill.submit');
          return { body: event.body, idempotencyKey: context.idempotencyKey };
        },
        onDone: { target: 'issued', actions: { type: 'open the bill', params: ({ event }) => ({ objectOID: event.output.objectOID }) } },
        onError: { target: 'editing', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    issued: { type: 'final' },
  },
});

export type NewBillActor = ActorRefFrom<typeof newBillMachine>;
