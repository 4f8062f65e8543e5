/**
 * The desk's effects, wired into its machines: each machine's named actors become calls of the desk API, and its
 * named actions the few effects the page has beside them (a new Idempotency-Key, the logger). The composition root
 * (main.tsx) makes the API once; tests hand these factories msw behind the same API, so the page they drive is wired as
 * in production.
 */
import { assign, fromPromise } from 'xstate';
import { auditMachine } from '../machines/audit';
import { billMachine } from '../machines/bill';
import { billsListMachine } from '../machines/billsList';
import { deskMachine } from '../machines/desk';
import { newBillMachine } from '../machines/newBill';
import { passwordChangeMachine } from '../machines/passwordChange';
import { paymentActionMachine, type PerformInput } from '../machines/paymentAction';
import { paymentsMachine } from '../machines/payments';
import { settingsMachine } from '../machines/settings';
import { signInMachine } from '../machines/signIn';
import { staffMachine } from '../machines/staff';
import type { DeskApi } from '../services/api';
import { moneyValue } from '../services/format';
import type { DeskActionKind, Money } from '../services/types';

export interface DeskDependencies {
  api: DeskApi;
  /** A new Idempotency-Key (one per form or dialog opened). */
  newKey: () => string;
  log: (error: unknown) => void;
  /** A session ends after this long without a request: the page signs out after as long without a key or a click. */
  idleMs: number;
}

/** An amount asked, as the API's money (none: all). */
const amountOf = (kopecks: number | null): { amount?: Money } => (kopecks !== null ? { amount: { value: moneyValue(kopecks), currency: 'RUB' } } : {});

/** What each kind of action asks of the server; the dialog and its confirmation are the same for all. */
export const actionCalls = (api: DeskApi): Record<DeskActionKind, (input: PerformInput) => Promise<unknown>> => ({
  refund: ({ subject, request, idempotencyKey }) => api.refund(subject, { ...amountOf(request.amountKopecks), ...(request.reason ? { reason: request.reason } : {}) }, idempotencyKey),
  capture: ({ subject, request, idempotencyKey }) => api.capture(subject, amountOf(request.amountKopecks), idempotencyKey),
  release: ({ subject, idempotencyKey }) => api.release(subject, idempotencyKey),
  handover: ({ subject, idempotencyKey }) => api.handOver(subject, idempotencyKey),
});

export function defineDeskActor({ api, newKey, log, idleMs }: DeskDependencies) {
  const logError = (_: unknown, { error }: { error: unknown }) => log(error);
  const calls = actionCalls(api);
  return deskMachine.provide({
    actors: {
      'load session': fromPromise(() => api.session()),
      'sign out': fromPromise(() => api.signOut()),
      signIn: signInMachine.provide({ actors: { 'sign in': fromPromise(({ input }) => api.signIn(input.email, input.password)) }, actions: { 'log error': logError } }),
      passwordChange: passwordChangeMachine.provide({ actors: { 'change password': fromPromise(({ input }) => api.changePassword(input.current, input.password)) }, actions: { 'log error': logError } }),
      billsList: billsListMachine.provide({ actors: { 'load bills': fromPromise(({ input }) => api.bills(input)) }, actions: { 'log error': logError } }),
      bill: billMachine.provide({
        actors: {
          'load bill': fromPromise(({ input }) => api.bill(input)),
          'send link': fromPromise(({ input }) => api.sendLink(input.objectOID, input.channel, input.to)),
          paymentAction: paymentActionMachine.provide({
            actors: { perform: fromPromise(({ input }) => calls[input.action.kind](input)) },
            actions: { 'log error': logError, 'make idempotency key': assign({ idempotencyKey: () => newKey() }) },
          }),
        },
        actions: { 'log error': logError },
      }),
      newBill: newBillMachine.provide({
        actors: { 'load form': fromPromise(() => api.billForm()), 'issue bill': fromPromise(({ input }) => api.issueBill(input.body, input.idempotencyKey)) },
        actions: { 'log error': logError, 'make idempotency key': assign({ idempotencyKey: () => newKey() }) },
      }),
      payments: paymentsMachine.provide({ actors: { 'load figures': fromPromise(() => api.figures()) }, actions: { 'log error': logError } }),
      settings: settingsMachine.provide({
        actors: {
          'load settings': fromPromise(() => api.settings()),
          'save settings': fromPromise(({ input }) => api.saveSettings(input)),
          'save logo': fromPromise(({ input }) => api.saveLogo(input)),
          'test webhook': fromPromise(() => api.testWebhook()),
        },
        actions: { 'log error': logError },
      }),
      staff: staffMachine.provide({
        actors: {
          'load staff': fromPromise(() => api.staff()),
          'add staff': fromPromise(({ input }) => api.addStaff(input.email, input.name, input.role)),
          'change staff': fromPromise(({ input }) => api.changeStaff(input.id, input.change)),
          'reset password': fromPromise(({ input }) => api.resetStaffPassword(input)),
        },
        actions: { 'log error': logError },
      }),
      audit: auditMachine.provide({ actors: { 'load audit': fromPromise(({ input }) => api.audit(input)) }, actions: { 'log error': logError } }),
    },
    actions: { 'log error': logError },
    delays: { 'idle time-out': idleMs },
  });
}
