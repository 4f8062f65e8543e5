import { SANDBOX_SMSRU, SMSRU_DEFAULT_URL, type AppOptions } from '../config';
import { answerText as text, formApi, NoAnswer, requiredText, type FormApiOptions } from '../platform/formPost';
import { CHECK_STATUS, SmsProviderError, type CallCheckProvider, type CheckState, type Delivery, type TextProvider } from './port';

export interface SmsRuOptions extends FormApiOptions {
  /** The account's key (api_id). */
  apiId: string;
  /** An approved sender name; none: the provider's default. */
  from?: string | null;
}

type Answer = Record<string, unknown>;

/** The provider's status codes that mean "busy or broken, try again later" rather than a refusal of this request. */
const PROVIDER_DOWN_CODES = new Set([220, 500]);

const codeOf = (value: unknown): number | null => (value === undefined || value === null || value === '' || Number.isNaN(Number(value)) ? null : Number(value));
const isObject = (value: unknown): value is Answer => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A text's delivery by its status code: 103 delivered; 104–108 and 150 not delivered; anything before that on the way. */
export function deliveryOf(statusCode: number): Delivery {
  if (statusCode === 103) return 'delivered';
  if ((statusCode >= 104 && statusCode <= 108) || statusCode === 150) return 'not delivered';
  return 'on the way';
}

/** A refusal in the provider's words: its status (outer, or of one phone or text), code and text. */
function refusal(method: string, entry: Answer): SmsProviderError {
  const statusCode = codeOf(entry.status_code);
  const message = `${statusCode ?? 'no status_code'} ${text(entry.status_text) || 'refused'}`;
  return new SmsProviderError(method, 'refused', message, statusCode, statusCode !== null && PROVIDER_DOWN_CODES.has(statusCode));
}

/**
 * The SMS.ru adapter, both ports in one: form-encoded POSTs with the account's key and `json=1`, JSON answers whose
 * `status` is "OK" (an "ERROR" carries `status_code` and `status_text`), a time-out on every call. A text's own status
 * sits inside `sms`, per phone: the outer status can be OK while the phone was refused. It never retries: whether a
 * text is tried again is the outbox's decision (accounts/texts.ts), which knows whether its code still lives.
 */
export function smsRu(options: SmsRuOptions): TextProvider & CallCheckProvider {
  const post = formApi(options);

  async function call(method: string, params: Record<string, string>): Promise<Answer> {
    const form = new URLSearchParams({ ...params, api_id: options.apiId, json: '1' });
    let status: number;
    let raw: string;
    try {
      ({ status, raw } = await post(method, form));
    } catch (error) {
      if (error instanceof NoAnswer) throw new SmsProviderError(method, error.kind, error.message);
      throw error;
    }
    if (status !== 200) throw new SmsProviderError(method, 'http', `HTTP ${status}`);
    let answer: unknown;
    try {
      answer = JSON.parse(raw);
    } catch {
      throw new SmsProviderError(method, 'not-json', 'the answer is not JSON');
    }
    if (!isObject(answer)) throw new SmsProviderError(method, 'not-json', 'the answer is not a JSON object');
    if (answer.status !== 'OK') throw refusal(method, answer);
    return answer;
  }

  /** The entry of one phone or text inside `sms`, which must itself say OK. */
  function entryOf(method: string, answer: Answer, key: string): Answer {
    const entry = isObject(answer.sms) ? answer.sms[key] : undefined;
    if (!isObject(entry)) throw new SmsProviderError(method, 'refused', `the answer has no sms.${key}`);
    if (entry.status !== 'OK') throw refusal(method, entry);
    return entry;
  }

  const required = (method: string, answer: Answer, name: string) => requiredText(answer, name, (message) => new SmsProviderError(method, 'refused', message));

  return {
    async send(phone, message) {
      const method = 'sms/send';
      const answer = await call(method, { to: phone, msg: message, ...(options.from ? { from: options.from } : {}) });
      return { smsId: required(method, entryOf(method, answer, phone), 'sms_id') };
    },

    async status(smsId) {
      const method = 'sms/status';
      const entry = entryOf(method, await call(method, { sms_id: smsId }), smsId);
      const statusCode = codeOf(entry.status_code);
      if (statusCode === null) throw new SmsProviderError(method, 'refused', `the answer has no status_code for ${smsId}`);
      return { statusCode, delivery: deliveryOf(statusCode) };
    },

    async start(phone) {
      const method = 'callcheck/add';
      const answer = await call(method, { phone });
      const callPhone = required(method, answer, 'call_phone');
      return { checkId: required(method, answer, 'check_id'), callPhone, callPhonePretty: text(answer.call_phone_pretty) || `+${callPhone}` };
    },

    async read(checkId): Promise<CheckState> {
      const method = 'callcheck/status';
      const status = codeOf((await call(method, { check_id: checkId })).check_status);
      if (status === CHECK_STATUS.waiting) return 'waiting';
      if (status === CHECK_STATUS.confirmed) return 'confirmed';
      if (status === CHECK_STATUS.ended) return 'ended';
      throw new SmsProviderError(method, 'refused', `the answer's check_status is ${status ?? 'missing'}`);
    },
  };
}

/**
 * The provider the configuration names: SMS.ru at SMSRU_URL (or its own address) with SMSRU_API_ID; without either,
 * the sandbox's SMS.ru fake on this server, whose address is known only after listen (PORT=0), so it is read on every
 * call. The server refused to start already when neither is set with the sandbox off (config.ts, smsConfigProblem).
 */
export function configuredSmsProvider(options: AppOptions): TextProvider & CallCheckProvider {
  const configured = options.smsruApiId !== null || options.smsruUrl !== null;
  return smsRu({
    baseUrl: configured ? (options.smsruUrl ?? SMSRU_DEFAULT_URL) : () => `${options.publicUrl}${SANDBOX_SMSRU.path}`,
    apiId: options.smsruApiId ?? SANDBOX_SMSRU.apiId,
    from: options.smsruFrom,
    fetch: options.smsruFetch,
    timeoutMs: options.smsTimeoutMs,
  });
}
