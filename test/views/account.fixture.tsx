import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, createMachine, type AnyEventObject } from 'xstate';
import type { CheckCodeInput, LoginInput, SendCodeInput } from '../../src/machines/accountFlow';
import { checkoutMachine, type CheckoutActor } from '../../src/machines/checkout';
import { resumeAfterReload } from '../../src/machines/checkoutResume';
import { codeFlowMachine, nothingToFinish, type FinishInput } from '../../src/machines/codeFlow';
import { freeCallMachine } from '../../src/machines/freeCall';
import { signInMachine } from '../../src/machines/signIn';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import type { PageConfig } from '../../src/services/pageConfig';
import type { Bill, CodeRequest, FreeCallNumber, FreeCallState, LoyaltyUser } from '../../src/services/types';
import { PageContext } from '../../src/views/appContext';
import { Checkout } from '../../src/views/Checkout';
import { preloadViews } from '../../src/views/lazyViews';
import { regBill } from '../fixtures/accountFlows';
import { fakeRequest, noCodeDraft, testPageConfig } from '../fixtures/fakes';

// The page loads some views on demand; here they are loaded up front so that renders stay synchronous.
beforeAll(() => preloadViews());

// The checkouts a test started stop with it, so no countdown or poll keeps running on the real clock afterwards.
const running: { stop(): void }[] = [];
afterEach(() => running.splice(0).forEach((actor) => actor.stop()));

export const pageConfig: PageConfig = testPageConfig('bill-reg');

/**
 * Mounts the checkout view as the page does, on a checkout actor whose account flows have fake I/O. The checkout
 * runs under a parent that records what it is told (user.signedIn), like the app machine.
 */
export function renderAccount({
  bill = regBill(),
  user = null,
  advanceTimers,
  resumePath = null,
  codeDraft = null,
}: { bill?: Bill; user?: LoyaltyUser | null; advanceTimers?: boolean; resumePath?: string | null; codeDraft?: CodeRequest | null } = {}) {
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
  const checkout = checkoutMachine.provide({
    actors: {
      signIn: signInMachine.provide({ actors: { login: calls.login.logic }, actions: quiet }),
      pointsCode: codeFlow.provide({ actors: { finish: nothingToFinish } }),
      passwordCode: codeFlow.provide({ actors: { finish: calls.restorePassword.logic } }),
      registrationCode: codeFlow.provide({ actors: { finish: calls.registerAccount.logic } }),
      freeCall: freeCallMachine.provide({
        actors: { lockFreeCall: calls.lockFreeCall.logic, checkFreeCall: calls.checkFreeCall.logic },
        actions: { ...quiet, 'reload page': reload },
      }),
    },
    actions: { ...noCodeDraft, ...resumeAfterReload.actions },
    guards: resumeAfterReload.guards,
  });
  const told: AnyEventObject[] = [];
  const app = createActor(
    createMachine({
      invoke: { id: 'checkout', src: checkout, input: { bill, user, isDesktop: true, resumePath, codeDraft } },
      on: { '*': { actions: ({ event }) => void told.push(event) } },
    }),
  ).start();
  running.push(app);
  const actor = app.getSnapshot().children.checkout as CheckoutActor;
  const user$ = userEvent.setup(advanceTimers ? { advanceTimers: jest.advanceTimersByTime } : {});
  const view = render(
    <PageContext.Provider value={{ config: pageConfig, goBack: () => actor.send({ type: 'nav.back' }) }}>
      <Checkout actor={actor} />
    </PageContext.Provider>,
  );
  return { ...view, actor, calls, told, reload, user: user$ };
}

/** The account step rendered, then the sign-in form's link `name` followed ('Не помню пароль', 'Зарегистрироваться'). */
export async function renderAccountAt(name: string) {
  const rendered = renderAccount();
  await rendered.user.click(screen.getByRole('link', { name }));
  return rendered;
}

export const continueButton = () => screen.getByRole('button', { name: 'Продолжить' });

/** The robot check ticked, then Continue: how the restore and registration forms are sent. */
export async function continueAsHuman(user: ReturnType<typeof renderAccount>['user']) {
  await user.click(screen.getByLabelText('Я не робот'));
  await user.click(continueButton());
}
