import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, createMachine, waitFor, type AnyEventObject } from 'xstate';
import type { CheckCodeInput, LoginInput, SendCodeInput } from '../../src/machines/accountFlow';
import { checkoutMachine, type CheckoutActor } from '../../src/machines/checkout';
import { resumeAfterReload } from '../../src/machines/checkoutResume';
import { codeFlowMachine, nothingToFinish, type FinishInput } from '../../src/machines/codeFlow';
import { freeCallMachine } from '../../src/machines/freeCall';
import { signInMachine } from '../../src/machines/signIn';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import type { CheckoutDraft } from '../../src/services/checkoutDraft';
import type { PageConfig } from '../../src/services/pageConfig';
import type { Bill, CodeRequest, FreeCallNumber, FreeCallState, LoyaltyUser } from '../../src/services/types';
import { PageContext } from '../../src/views/appContext';
import { Checkout } from '../../src/views/Checkout';
import { accountBill } from '../fixtures/accountFlows';
import { pageCodeWith } from '../fixtures/chunkCode';
import { fakeRequest, testPageConfig } from '../fixtures/fakes';

// The checkouts a test started stop with it, so no countdown or poll keeps running on the real clock afterwards.
const running: { stop(): void }[] = [];
afterEach(() => running.splice(0).forEach((actor) => actor.stop()));

export const pageConfig: PageConfig = testPageConfig('bill-reg');

/**
 * Mounts the checkout view as the page does, on a checkout actor whose account flows have fake I/O, once the step it
 * opens on has its code (the views come as the page's do; the children's logic is the test's). The checkout runs under
 * a parent that records what it is told (user.signedIn), like the app machine.
 */
export async function renderAccount({
  bill = accountBill(),
  user = null,
  advanceTimers,
  resumePath = null,
  codeDraft = null,
}: { bill?: Bill; user?: LoyaltyUser | null; advanceTimers?: boolean; resumePath?: string | null; codeDraft?: CodeRequest | null } = {}) {
  // What this tab's draft says the code was asked for, as a reload reads it.
  const draft: CheckoutDraft | null = codeDraft ? { email: null, typed: {}, selectedTypeOid: null, agreements: {}, usedPoints: 0, pointsToUse: null, phoneChecked: false, transactionID: null, code: codeDraft } : null;
  const calls = {
    login: fakeRequest<AccountAnswer, LoginInput>(),
    sendCode: fakeRequest<AccountAnswer, SendCodeInput>(),
    checkCode: fakeRequest<AccountAnswer, CheckCodeInput>(),
    restorePassword: fakeRequest<AccountAnswer, FinishInput>(),
    registerAccount: fakeRequest<AccountAnswer, FinishInput>(),
    lockFreeCall: fakeRequest<FreeCallNumber | null, { phone: string }>(),
    checkFreeCall: fakeRequest<FreeCallState, { phone: string }>(),
  };
  const reload = jest.fn();
  const quiet = { 'log error': () => undefined };
  const codeFlow = codeFlowMachine.provide({ actors: { sendCode: calls.sendCode.logic, checkCode: calls.checkCode.logic }, actions: quiet });
  // The views come from the page's own chunks (jest's import() for webpack's), the children's logic is the test's.
  const { loadCode, views } = pageCodeWith({
    signInForm: { signIn: signInMachine.provide({ actors: { login: calls.login.logic }, actions: quiet }) },
    accountFlows: {
      pointsCode: codeFlow.provide({ actors: { finish: nothingToFinish } }),
      passwordCode: codeFlow.provide({ actors: { finish: calls.restorePassword.logic } }),
      registrationCode: codeFlow.provide({ actors: { finish: calls.registerAccount.logic } }),
      freeCall: freeCallMachine.provide({
        actors: { lockFreeCall: calls.lockFreeCall.logic, checkFreeCall: calls.checkFreeCall.logic },
        actions: { ...quiet, 'reload page': reload },
      }),
    },
  });
  const checkout = checkoutMachine.provide({
    actors: { loadCode },
    actions: resumeAfterReload.actions,
    guards: resumeAfterReload.guards,
  });
  const told: AnyEventObject[] = [];
  const app = createActor(
    createMachine({
      invoke: { id: 'checkout', src: checkout, input: { bill, user, isDesktop: true, resumePath, draft } },
      on: { '*': { actions: ({ event }) => void told.push(event) } },
    }),
  ).start();
  running.push(app);
  const actor = app.getSnapshot().children.checkout as CheckoutActor;
  const user$ = userEvent.setup(advanceTimers ? { advanceTimers: jest.advanceTimersByTime } : {});
  const view = render(
    <PageContext.Provider value={{ config: pageConfig, goBack: () => actor.send({ type: 'nav.back' }), views }}>
      <Checkout actor={actor} />
    </PageContext.Provider>,
  );
  await act(() => codeHere(actor));
  return { ...view, actor, calls, told, reload, user: user$ };
}

/** Sends an event to the checkout, then waits until the code of what it shows is here (a step's, the sign-in form's). */
export async function sendAndLoad(actor: CheckoutActor, event: Parameters<CheckoutActor['send']>[0]) {
  act(() => actor.send(event));
  await act(() => codeHere(actor));
}

/** Waits until no code the checkout shows is on its way: a step's, the sign-in form's. */
export const codeHere = (actor: CheckoutActor) =>
  waitFor(actor, (state) => !state.hasTag('loading step') && !state.matches({ account: { signInForm: 'loading' } })).then(() => undefined);

/** The account step rendered, then the sign-in form's link `name` followed ('Не помню пароль', 'Зарегистрироваться'). */
export async function renderAccountAt(name: string) {
  const rendered = await renderAccount();
  await rendered.user.click(screen.getByRole('link', { name }));
  await act(() => codeHere(rendered.actor));
  return rendered;
}

export const continueButton = () => screen.getByRole('button', { name: 'Продолжить' });

/** The robot check ticked, then Continue: how the restore and registration forms are sent. */
export async function continueAsHuman(user: Awaited<ReturnType<typeof renderAccount>>['user']) {
  await user.click(screen.getByLabelText('Я не робот'));
  await user.click(continueButton());
}
