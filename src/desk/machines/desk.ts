import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { errorOf, logErrorStub, promiseStub } from '../../machines/stub';
import { ROUTE_PERMISSION, type DeskRoute, type RouteName } from '../services/routes';
import type { BillsQuery, Me, SessionAnswer } from '../services/types';
import { auditMachine } from './audit';
import { billMachine } from './bill';
import { billsListMachine } from './billsList';
import { newBillMachine } from './newBill';
import { passwordChangeMachine } from './passwordChange';
import { paymentsMachine } from './payments';
import { settingsMachine } from './settings';
import { signInMachine } from './signIn';
import { staffMachine } from './staff';

/** Why the sign-in form is shown: signed out by hand, the idle time-out, or the server ended the session. */
export type SignedOutNotice = 'signedOut' | 'idle' | 'ended' | null;

export interface DeskContext {
  me: Me | null;
  route: DeskRoute;
  notice: SignedOutNotice;
  /** The bills list's last query: coming back to the list finds it as it was. */
  billsQuery: BillsQuery;
}

export type DeskEvent =
  | { type: 'nav.to'; route: DeskRoute }
  | { type: 'desk.activity' }
  | { type: 'desk.signOut' }
  | { type: 'session.ended' }
  | { type: 'bills.remembered'; query: BillsQuery }
  | { type: 'retry' };

const PAGES: RouteName[] = ['bills', 'newBill', 'bill', 'payments', 'settings', 'staff', 'audit'];

/**
 * The desk: its session first (who is signed in), then the sign-in form or, for one whose password was made for a
 * single sign-in, their new password; then the pages. A page is a state (its machine invoked there) and the address bar
 * follows `route`; a page the role may not see is the `forbidden` state (the server would refuse its calls anyway).
 * Thirty minutes (the server's idle time) without a key or a click signs out; so does the server saying the session
 * has ended.
 */
export const deskMachine = setup({
  types: {
    context: {} as DeskContext,
    events: {} as DeskEvent,
    input: {} as { route: DeskRoute },
    children: {} as {
      signIn: 'signIn';
      password: 'passwordChange';
      bills: 'billsList';
      bill: 'bill';
      newBill: 'newBill';
      payments: 'payments';
      settings: 'settings';
      staff: 'staff';
      audit: 'audit';
    },
    tags: {} as 'busy',
  },
  actors: {
    'load session': promiseStub<SessionAnswer>('load session'),
    'sign out': promiseStub<SessionAnswer>('sign out'),
    signIn: signInMachine,
    passwordChange: passwordChangeMachine,
    billsList: billsListMachine,
    bill: billMachine,
    newBill: newBillMachine,
    payments: paymentsMachine,
    settings: settingsMachine,
    staff: staffMachine,
    audit: auditMachine,
  },
  actions: {
    'log error': logErrorStub,
    'keep session': assign((_, params: { answer: SessionAnswer }) => ({ me: params.answer.staff })),
    'set route': assign((_, params: { route: DeskRoute }) => ({ route: params.route })),
    'set notice': assign((_, params: { notice: SignedOutNotice }) => ({ notice: params.notice })),
    'forget me': assign({ me: null }),
    'remember bills query': assign((_, params: { query: BillsQuery }) => ({ billsQuery: params.query })),
  },
  guards: {
    'is signed in': (_, params: { answer: SessionAnswer }) => params.answer.staff !== null,
    'must change password': (_, params: { answer: SessionAnswer }) => params.answer.staff?.mustChangePassword === true,
    'has ended': (_, params: { answer: SessionAnswer }) => params.answer.ended,
    'opens page': ({ context }, params: { name: RouteName }) => context.route.name === params.name && (context.me?.permissions.includes(ROUTE_PERMISSION[params.name]) ?? false),
  },
  delays: {
    'idle time-out': 30 * 60_000,
  },
}).createMachine({
  id: 'desk',
  context: ({ input }) => ({ me: null, route: input.route, notice: null, billsQuery: { q: '', statuses: [], page: 1 } }),
  initial: 'checking',
  on: {
    'session.ended': { target: '.signedOut', actions: ['forget me', { type: 'set notice', params: { notice: 'ended' } }] },
  },
  states: {
    checking: {
      tags: 'busy',
      invoke: {
        src: 'load session',
        onDone: [
          { guard: { type: 'must change password', params: ({ event }) => ({ answer: event.output }) }, target: 'changingPassword', actions: { type: 'keep session', params: ({ event }) => ({ answer: event.output }) } },
          { guard: { type: 'is signed in', params: ({ event }) => ({ answer: event.output }) }, target: 'signedIn', actions: { type: 'keep session', params: ({ event }) => ({ answer: event.output }) } },
          { guard: { type: 'has ended', params: ({ event }) => ({ answer: event.output }) }, target: 'signedOut', actions: { type: 'set notice', params: { notice: 'ended' } } },
          { target: 'signedOut' },
        ],
        onError: { target: 'unavailable', actions: { type: 'log error', params: errorOf } },
      },
    },
    unavailable: { on: { retry: 'checking' } },
    signedOut: {
      on: { 'session.ended': {} },
      invoke: {
        id: 'signIn',
        src: 'signIn',
        onDone: [
          { guard: { type: 'must change password', params: ({ event }) => ({ answer: event.output }) }, target: 'changingPassword', actions: { type: 'keep session', params: ({ event }) => ({ answer: event.output }) } },
          { target: 'signedIn', actions: [{ type: 'keep session', params: ({ event }) => ({ answer: event.output }) }, { type: 'set notice', params: { notice: null } }] },
        ],
      },
    },
    changingPassword: {
      invoke: {
        id: 'password',
        src: 'passwordChange',
        onDone: { target: 'signedIn', actions: { type: 'keep session', params: ({ event }) => ({ answer: event.output }) } },
      },
      on: { 'desk.signOut': 'signingOut' },
    },
    signedIn: {
      type: 'parallel',
      on: {
        'nav.to': { target: '.page.choosing', actions: { type: 'set route', params: ({ event }) => ({ route: event.route }) } },
        'desk.signOut': { target: 'signingOut', actions: { type: 'set notice', params: { notice: 'signedOut' } } },
        'bills.remembered': { actions: { type: 'remember bills query', params: ({ event }) => ({ query: event.query }) } },
      },
      states: {
        page: {
          initial: 'choosing',
          states: {
            choosing: {
              always: [...PAGES.map((name) => ({ guard: { type: 'opens page' as const, params: { name } }, target: name })), { target: 'forbidden' }],
            },
            bills: { invoke: { id: 'bills', src: 'billsList', input: ({ context }) => ({ query: context.billsQuery }) } },
            newBill: { invoke: { id: 'newBill', src: 'newBill' } },
            bill: { invoke: { id: 'bill', src: 'bill', input: ({ context }) => ({ objectOID: context.route.name === 'bill' ? context.route.objectOID : '' }) } },
            payments: { invoke: { id: 'payments', src: 'payments' } },
            settings: { invoke: { id: 'settings', src: 'settings' } },
            staff: { invoke: { id: 'staff', src: 'staff' } },
            audit: { invoke: { id: 'audit', src: 'audit' } },
            forbidden: { description: "A page the role may not see: said as it is, the server would refuse its calls." },
          },
        },
        idle: {
          initial: 'watching',
          states: {
            watching: {
              on: { 'desk.activity': { target: 'watching', reenter: true } },
              after: { 'idle time-out': { target: '#desk.signingOut', actions: { type: 'set notice', params: { notice: 'idle' } } } },
            },
          },
        },
      },
    },
    signingOut: {
      tags: 'busy',
      invoke: {
        src: 'sign out',
        onDone: { target: 'signedOut', actions: 'forget me' },
        onError: { target: 'signedOut', actions: [{ type: 'log error', params: errorOf }, 'forget me'] },
      },
    },
  },
});

export type DeskActor = ActorRefFrom<typeof deskMachine>;
export type DeskSnapshot = SnapshotFrom<typeof deskMachine>;
