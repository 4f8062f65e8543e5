import type { KyInstance } from 'ky';
import { toApiError } from './http';
import type { PageConfig } from './pageConfig';
import type {
  Bill,
  CodePurpose,
  LoyaltyUser,
  OfferKind,
  PaymentStatusResponse,
  PaymentUrlRequest,
  PaymentUrlResponse,
  RegisterForm,
} from './types';

/** The answer shape most account calls share (success, json.*). */
export interface CallResult<T = Record<string, unknown>> {
  success: boolean;
  json?: T;
  data?: unknown;
  error?: string;
}

export interface ApiDeps {
  http: KyInstance;
  config: Pick<PageConfig, 'product' | 'providerBase'>;
  /** Read when a payment URL is requested (manager_id from a cookie). */
  managerId: () => string | null;
}

/**
 * One typed function per call of the page's API. Each rejects with an ApiError carrying the status and the server's
 * message; what to show the payer is the caller's decision.
 */
export function createApi({ http, config, managerId }: ApiDeps) {
  const provider = (call: string) => `${config.providerBase}/ajax/${config.product}/${call}/`;
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);

  async function call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw await toApiError(error);
    }
  }
  const postJson = <T>(url: string, json: unknown) => call(() => http.post(url, { json }).json<T>());
  const postForm = <T>(url: string, fields: Record<string, string>) => call(() => http.post(url, { body: form(fields) }).json<T>());

  return {
    /** GET /ajax/object-info/{id}: the initial bill data; `retry`, a declined order whose choices the bill keeps. */
    objectInfo: (objectOID: string, retry: string | null = null) =>
      call(() =>
        http.get(`/ajax/object-info/${encodeURIComponent(objectOID)}`, retry ? { searchParams: { retry } } : undefined).json<Bill>(),
      ),

    /** /ajax/check-email/: the server's verdict on an e-mail address (success must be true). */
    checkEmail: (email: string) => postJson<CallResult>('/ajax/check-email/', { email }),

    /** Provider host freeCallLock: starts the free call's check for this phone; the number to call when it did. */
    freeCallLock: (phone: string) =>
      postForm<CallResult<{ result: boolean; call_phone?: string; call_phone_pretty?: string }>>(provider('freeCallLock'), { phone }),

    /** Provider host freeCall: whether the call from this phone has come in (`state`: whether to wait on). */
    freeCall: (phone: string) => postForm<CallResult<{ result: boolean; state?: string }>>(provider('freeCall'), { phone }),

    /** Provider host checkUser: the signed-in user's token, if somebody is signed in. */
    checkUser: () => call(() => http.post(provider('checkUser')).json<CallResult<{ token?: string }>>()),

    /** /ajax/get-user: the loyalty user for a token. */
    getUser: (token: string) => postJson<CallResult & { user?: LoyaltyUser }>('/ajax/get-user', { token }),

    /** /ajax/registration/: a new loyalty account; the password comes by SMS. */
    register: (values: RegisterForm, captcha: string | null) =>
      postJson<CallResult<{ show_captcha?: boolean }>>('/ajax/registration/', {
        surname: values.surname,
        name: values.name,
        patronymic: values.patronymic,
        // The provider's API reads the patronymic under this misspelt name too.
        patronimyc: values.patronymic,
        phone: values.phone,
        privacy: values.privacy,
        personalDataAgreement: values.privacy,
        captcha,
      }),

    /** /ajax/sendSMS/: password restore; a new password is sent by SMS. */
    restorePassword: (phone: string, captcha: string | null) =>
      postJson<CallResult<{ show_captcha?: boolean }>>('/ajax/sendSMS/', { login: phone, captcha }),

    /** Provider host login, form-encoded: phone (also as login), password, captcha. */
    login: (phone: string, password: string, captcha: string | null) =>
      postForm<CallResult>(provider('login'), { login: phone, phone, password, captcha: captcha ?? '' }),

    /** Local /ajax/logout, then the provider's logout. */
    logout: async () => {
      await postJson<CallResult>('/ajax/logout', {});
      await call(() => http.post(provider('logout')).json<CallResult>());
    },

    /** /api/getPaymentUrl/: starts (or finds) the payment attempt; manager_id from its cookie is added. */
    getPaymentUrl: (request: PaymentUrlRequest) =>
      postJson<PaymentUrlResponse>('/api/getPaymentUrl/', { ...request, manager_id: managerId() }),

    /** /api/offerText/: the offer's text for a payment type. */
    // The provider API spells the executor's offer 'executer': the page's name goes out in that spelling.
    offerText: (kind: OfferKind, objectOID: string, cardTypeOID: string) =>
      postJson<{ OfferDescription?: string }>('/api/offerText/', { type: kind === 'executor' ? 'executer' : kind, objectOID, cardTypeOID }),

    /** GET /api/sbp-banks: the fast-payment member banks (cacheable; the browser revalidates it by its ETag). */
    sbpBanks: () => call(() => http.get('/api/sbp-banks').json<unknown>()),

    /** /api/getResult/: the payment status of a transaction. */
    getResult: (transactionID: string, billOID: string) => postJson<PaymentStatusResponse>('/api/getResult/', { transactionID, billOID }),

    /** /api/send-sms/: sends a check code; the answer may ask for a captcha. */
    // `purpose` binds the code to what it confirms, so a restore code cannot confirm points.
    sendCode: (payload: {
      phone: string | null;
      objectOID: string;
      captchaVerified: boolean;
      custNo: string | null;
      usePoints: boolean;
      captcha: string | null;
      purpose: CodePurpose;
    }) =>
      // A sent code's answer (and a too-early refusal's body) says when the next may go: secondsLeft.
      postJson<CallResult<{ show_captcha?: boolean }> & { show_captcha?: boolean; secondsLeft?: number }>('/api/send-sms/', payload),

    /** /api/check-code/: checks a 4-digit code. */
    // After a wrong code the server demands the robot check, so the captcha rides along here too.
    checkCode: (payload: {
      code: string;
      phone: string | null;
      objectOID: string;
      custNo: string | null;
      usePoints: boolean;
      purpose: CodePurpose;
      captcha?: string | null;
    }) =>
      postJson<CallResult & { data?: unknown }>('/api/check-code/', payload),
  };
}

export type Api = ReturnType<typeof createApi>;
