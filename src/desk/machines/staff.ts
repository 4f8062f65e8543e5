import { assertEvent, assign, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, promiseStub } from '../../machines/stub';
import { problemOf, type DeskProblem } from '../services/http';
import type { Role } from '../services/rules/permissions';
import type { StaffMember } from '../services/types';

export interface StaffContext {
  staff: StaffMember[] | null;
  problem: DeskProblem | null;
  /** A one-time password just made (a new member, or a reset), shown once. */
  shown: { email: string; password: string; added: boolean } | null;
}

export type StaffEvent =
  | { type: 'staff.add'; email: string; name: string; role: Role }
  | { type: 'staff.change'; id: number; change: { role?: Role; disabled?: boolean } }
  | { type: 'staff.reset'; id: number }
  | { type: 'retry' };

type Made = { staff: StaffMember; oneTimePassword: string };

/** The staff (admins): the list, then one change at a time, each followed by the list read again. */
export const staffMachine = setup({
  types: { context: {} as StaffContext, events: {} as StaffEvent, tags: {} as 'busy' | 'failed' },
  actors: {
    'load staff': promiseStub<{ staff: StaffMember[] }>('load staff'),
    'add staff': promiseStub<Made, { email: string; name: string; role: Role }>('add staff'),
    'change staff': promiseStub<{ staff: StaffMember }, { id: number; change: { role?: Role; disabled?: boolean } }>('change staff'),
    'reset password': promiseStub<Made, number>('reset password'),
  },
  actions: {
    'log error': logErrorStub,
    'keep staff': assign((_, params: { staff: StaffMember[] }) => ({ staff: params.staff })),
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
    'forget': assign({ problem: null, shown: null }),
    'show password': assign((_, params: { made: Made; added: boolean }) => ({ shown: { email: params.made.staff.email, password: params.made.oneTimePassword, added: params.added } })),
  },
}).createMachine({
  id: 'staff',
  context: { staff: null, problem: null, shown: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        src: 'load staff',
        onDone: { target: 'ready', actions: { type: 'keep staff', params: ({ event }) => ({ staff: event.output.staff }) } },
        onError: { target: 'failed', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    failed: { tags: 'failed', on: { retry: 'loading' } },
    ready: {
      on: {
        'staff.add': { target: 'adding', actions: 'forget' },
        'staff.change': { target: 'changing', actions: 'forget' },
        'staff.reset': { target: 'resetting', actions: 'forget' },
      },
    },
    adding: {
      tags: 'busy',
      invoke: {
        src: 'add staff',
        input: ({ event }) => {
          assertEvent(event, 'staff.add');
          return { email: event.email, name: event.name, role: event.role };
        },
        onDone: { target: 'loading', actions: { type: 'show password', params: ({ event }) => ({ made: event.output, added: true }) } },
        onError: { target: 'ready', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    changing: {
      tags: 'busy',
      invoke: {
        src: 'change staff',
        input: ({ event }) => {
          assertEvent(event, 'staff.change');
          return { id: event.id, change: event.change };
        },
        onDone: 'loading',
        onError: { target: 'ready', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    resetting: {
      tags: 'busy',
      invoke: {
        src: 'reset password',
        input: ({ event }) => {
          assertEvent(event, 'staff.reset');
          return event.id;
        },
        onDone: { target: 'loading', actions: { type: 'show password', params: ({ event }) => ({ made: event.output, added: false }) } },
        onError: { target: 'ready', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
  },
});

export type StaffActor = ActorRefFrom<typeof staffMachine>;
