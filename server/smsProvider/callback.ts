/**
 * The provider's callback as SMS.ru posts it: form-encoded `data[]` values (or `data[0]`, `data[1]`, …), each a record
 * of lines whose first names its kind: `sms_status` with the text's id and status code, `callcheck_status` with the
 * check's id and status. Unauthenticated at the provider's side: what it says is only ever a hint to read the text or
 * the check from the provider itself.
 */

export type CallbackRecord = { kind: 'sms_status'; smsId: string } | { kind: 'callcheck_status'; checkId: string };

/** An id as the provider writes them: letters, digits and hyphens (anything else is not a record of ours). */
const ID = /^[A-Za-z0-9-]{1,64}$/;

/** At most this many records of one callback are heard (the provider batches at most 100); the rest are left out. */
export const CALLBACK_RECORDS_MAX = 100;

/**
 * The records of a callback's form, each text or check once however often it is named, at most CALLBACK_RECORDS_MAX
 * of them: what one callback makes the server read is bounded by the distinct ids it names. What is not a record of a
 * known kind is left out.
 */
export function callbackRecords(form: unknown): CallbackRecord[] {
  if (!form || typeof form !== 'object') return [];
  const values = Object.entries(form as Record<string, unknown>)
    .filter(([name]) => name === 'data' || /^data\[\d*\]$/.test(name))
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is string => typeof value === 'string');
  const records = new Map<string, CallbackRecord>();
  for (const value of values) {
    if (records.size === CALLBACK_RECORDS_MAX) break;
    const [kind, id] = value.split(/\r?\n/, 2).map((line) => line.trim());
    if (!id || !ID.test(id)) continue;
    if (kind === 'sms_status') records.set(`${kind} ${id}`, { kind, smsId: id });
    else if (kind === 'callcheck_status') records.set(`${kind} ${id}`, { kind, checkId: id });
  }
  return [...records.values()];
}

/** The body the provider expects back, whatever the records said: anything else and it posts them again. */
export const CALLBACK_ANSWER = '100';
