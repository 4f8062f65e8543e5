import { CALLBACK_RECORDS_MAX, callbackRecords } from '../../../server/smsProvider/callback';

const form = (records: string[]) => ({ 'data[]': records });

test("a callback's records: each text and check once, however often it is named", () => {
  const named = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 'sms_status\n000000-1\n103\n1768467600' : 'callcheck_status\n201737-542\n401\n1768467600'));
  expect(callbackRecords(form(named))).toEqual([
    { kind: 'sms_status', smsId: '000000-1' },
    { kind: 'callcheck_status', checkId: '201737-542' },
  ]);
  // The same id under both kinds is two records; records of no kind of ours and ids that cannot be ids are left out.
  expect(callbackRecords({ data: ['sms_status\nx-1', 'callcheck_status\nx-1', 'unknown\nx-2', 'sms_status\nnot an id', 'sms_status'] })).toEqual([
    { kind: 'sms_status', smsId: 'x-1' },
    { kind: 'callcheck_status', checkId: 'x-1' },
  ]);
});

test(`at most ${CALLBACK_RECORDS_MAX} distinct records are heard from one callback, repeats not counting against them`, () => {
  const repeats = Array.from({ length: 500 }, () => 'sms_status\nsame-id\n103');
  const distinct = Array.from({ length: 300 }, (_, i) => `sms_status\nid-${i}\n103`);
  const records = callbackRecords(form([...repeats, ...distinct]));
  expect(records).toHaveLength(CALLBACK_RECORDS_MAX);
  expect(records.slice(0, 2)).toEqual([
    { kind: 'sms_status', smsId: 'same-id' },
    { kind: 'sms_status', smsId: 'id-0' },
  ]);
});
