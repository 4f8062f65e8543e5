import { fromCallback, fromPromise } from 'xstate';
import { appMachine } from './machines/app';
import { checkoutMachine } from './machines/checkout';
import { codeFlowMachine, nothingToFinish, type FinishInput } from './machines/codeFlow';
import { freeCallMachine } from './machines/freeCall';
import { bankWidgetMachine } from './machines/bankWidget';
import { offerMachine } from './machines/offer';
import { paymentStatusMachine } from './machines/paymentStatus';
import { signInMachine } from './machines/signIn';
import { answerOf, type AccountAnswer } from './services/accountAnswer';
import { forgetCodeDraft, saveCodeDraft } from './services/codeDraft';
import type { Api } from './services/api';
import type { Analytics, BrowserEnvironment } from './services/environment';
import { messages } from './services/messages';
import type { LoyaltyUser } from './services/types';
import type { BankWidgetClient } from './widget';

export interface Dependencies {
  api: Api;
  env: BrowserEnvironment;
  analytics: Analytics;
  log: (error: unknown) => void;
  /** The document whose visibility pauses status polling and whose title shows the data error. */
  doc: Document;
  /** The bank-app pay widget client (src/widget), loaded on demand in the page; without it bank-app pay fails loudly. */
  widget?: BankWidgetClient;
}

/** Loads the signed-in loyalty user: the provider's checkUser gives a token, get-user the user; null for a guest. */
async function loadUser(api: Api): Promise<LoyaltyUser | null> {
  const check = await api.checkUser();
  const token = check.success ? check.json?.token : undefined;
  if (!token) return null;
  const answer = await api.getUser(token);
  return answer.success && answer.user ? answer.user : null;
}

/** Payment-status polling with its real effects: the getResult call and the tab's visibility. */
export function providePaymentStatus({ api, log, doc }: Dependencies) {
  return paymentStatusMachine.provide({
    actors: {
      fetchStatus: fromPromise(({ input }) => api.getResult(input.transactionID, input.billOID)),
      watchVisibility: fromCallback(({ sendBack }) => {
        const onChange = () => sendBack({ type: doc.visibilityState === 'hidden' ? 'visibility.hidden' : 'visibility.visible' });
        doc.addEventListener('visibilitychange', onChange);
        onChange();
        return () => doc.removeEventListener('visibilitychange', onChange);
      }),
      watchConnection: fromCallback(({ sendBack }) => {
        const win = doc.defaultView;
        if (!win) return undefined;
        const offline = () => sendBack({ type: 'connection.offline' });
        const online = () => sendBack({ type: 'connection.online' });
        win.addEventListener('offline', offline);
        win.addEventListener('online', online);
        if (win.navigator.onLine === false) offline();
        return () => {
          win.removeEventListener('offline', offline);
          win.removeEventListener('online', online);
        };
      }),
    },
    actions: { 'log poll failure': (_, { error }) => log(error) },
  });
}

/**
 * The composition root's one job: give every machine its real effects (DESIGN §4). Tests call this with msw
 * behind the API and a fake environment, so the page they drive is wired exactly as in production.
 */
export function provideApp(deps: Dependencies) {
  const { api, env, analytics, log, doc } = deps;
  const checkout = checkoutMachine.provide({
    actors: {
      checkEmail: fromPromise(async ({ input }) => {
        const answer = await api.checkEmail(input.email);
        if (!answer.success) throw new Error('Неверный email');
        return input.email;
      }),
      requestPaymentUrl: fromPromise(({ input }) => api.getPaymentUrl(input)),
      paymentStatus: providePaymentStatus(deps),
      ...providePayments(deps),
      ...provideAccountFlows(deps),
    },
    actions: {
      'go to url': (_, { url }) => env.navigate(url),
      'log error': (_, { error }) => log(error),
      'save code draft': (_, { objectOID, request }) => saveCodeDraft(env.tabStorage, objectOID, request),
      'forget code draft': () => forgetCodeDraft(env.tabStorage),
    },
  });

  return appMachine.provide({
    actors: {
      loadBill: fromPromise(({ input }) => api.objectInfo(input.objectOID, input.retry ?? null)),
      loadUser: fromPromise(() => loadUser(api)),
      logout: fromPromise(() => api.logout()),
      checkout,
    },
    actions: {
      'show data error title': () => {
        doc.title = messages.app.dataErrorTitle;
      },
      'track sign-in': (_, { user }) => analytics({ event: 'login', userOid: user?.oid ?? null }),
      'log error': (_, { error }) => log(error),
    },
  });
}

/**
 * The account flows with their real effects: the provider login, SMS codes, and what each purpose's right code
 * unlocks (the password reset, the registration), and the free-call line. Refusals become answers the flows read
 * (show_captcha, secondsLeft); see accountAnswer.ts.
 */
export function provideAccountFlows({ api, env, log }: Pick<Dependencies, 'api' | 'env' | 'log'>) {
  const logError = (_: unknown, { error }: { error: unknown }) => {
    if (error) log(error);
  };
  const codeFlow = codeFlowMachine.provide({
    actors: {
      sendCode: fromPromise(({ input }) => answerOf(api.sendCode({ ...input, captchaVerified: input.captcha !== null }))),
      checkCode: fromPromise(({ input }) => answerOf(api.checkCode(input))),
    },
    actions: { 'log error': logError },
  });
  const finishing = (finish: (input: FinishInput) => Promise<unknown>) =>
    codeFlow.provide({ actors: { finish: fromPromise<AccountAnswer, FinishInput>(({ input }) => answerOf(finish(input))) } });
  return {
    signIn: signInMachine.provide({
      actors: { login: fromPromise(({ input }) => answerOf(api.login(input.phone, input.password, input.captcha))) },
      actions: { 'log error': logError },
    }),
    pointsCode: codeFlow.provide({ actors: { finish: nothingToFinish } }),
    passwordCode: finishing(({ request, captcha }) => api.restorePassword(request.phone, captcha)),
    registrationCode: finishing(({ request, captcha }) =>
      request.purpose === 'register' ? api.register(request.form, captcha) : Promise.reject(new Error(`not a registration: ${request.purpose}`)),
    ),
    freeCall: freeCallMachine.provide({
      actors: {
        lockFreeCall: fromPromise(async ({ input }) => (await api.freeCallLock(input.phone)).json?.result === true),
        checkFreeCall: fromPromise(async ({ input }) => (await api.freeCall(input.phone)).json?.result === true),
      },
      actions: { 'reload page': () => env.reload(), 'log error': logError },
    }),
  };
}

/** The payment effects of the choose-payment-type step: the offer text and the bank-app pay widget (src/widget). */
export function providePayments({ api, env, log, widget }: Pick<Dependencies, 'api' | 'env' | 'log' | 'widget'>) {
  const offer = offerMachine.provide({
    actors: {
      fetchOffer: fromPromise(async ({ input }) => (await api.offerText(input.kind, input.objectOID, input.cardTypeOID)).OfferDescription ?? ''),
    },
    actions: { 'log error': (_, { error }) => log(error) },
  });
  if (!widget) return { offer };
  const bankWidget = bankWidgetMachine.provide({
    actors: {
      widget: fromCallback(({ input, sendBack }) => widget.open({ ...input, isSafariDesktop: env.isSafariDesktop }, sendBack)),
    },
    actions: {
      'redirect to widget': (_, input) => widget.redirect({ ...input, isSafariDesktop: false }),
      'open helper tab': (_, input) => widget.openHelperTab(input.code),
      'go to return url': (_, { outcome, ...ids }) => env.navigate(widget.returnUrl(ids, outcome)),
      'log error': (_, { error }) => log(error),
    },
    guards: { 'is Safari desktop': () => env.isSafariDesktop },
  });
  return { offer, bankWidget };
}
