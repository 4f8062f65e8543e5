/**
 * One typed function per call of the desk API. Every failure is a DeskApiError with the server's code and fields;
 * every session answer carries the CSRF token the next POST needs, kept here.
 */
import type { KyInstance } from 'ky';
import { toDeskError, type CsrfToken } from './http';
import type {
  AuditAnswer,
  BillForm,
  BillPage,
  BillsAnswer,
  CaptureBody,
  BillsQuery,
  Figures,
  HandoverAnswer,
  NewBillBody,
  Payment,
  Refund,
  RefundBody,
  SessionAnswer,
  Settings,
  SettingsChange,
  StaffMember,
  TestDelivery,
} from './types';
import type { Role } from './rules/permissions';

const call = async <T>(request: () => Promise<T>): Promise<T> => {
  try {
    return await request();
  } catch (error) {
    throw await toDeskError(error);
  }
};

export type ExportKind = 'payments' | 'bills';

/** Where a CSV export downloads from (a plain link: the browser saves the file). */
export const exportUrl = (kind: ExportKind, from: string, to: string) => `/desk/api/export/${kind}.csv?from=${from}&to=${to}`;

export function createDeskApi(http: KyInstance, csrf: CsrfToken) {
  const session = async (answer: Promise<SessionAnswer>) => {
    const read = await answer;
    csrf.set(read.csrfToken);
    return read;
  };
  return {
    session: () => call(() => session(http.get('session').json<SessionAnswer>())),
    signIn: (email: string, password: string) => call(() => session(http.post('sign-in', { json: { email, password } }).json<SessionAnswer>())),
    signOut: () => call(() => session(http.post('sign-out', { json: {} }).json<SessionAnswer>())),
    changePassword: (current: string, password: string) => call(() => session(http.post('password', { json: { current, password } }).json<SessionAnswer>())),

    bills: (query: BillsQuery) =>
      call(() =>
        http
          .get('bills', { searchParams: { ...(query.q ? { q: query.q } : {}), ...(query.statuses.length > 0 ? { status: query.statuses.join(',') } : {}), page: String(query.page) } })
          .json<BillsAnswer>(),
      ),
    bill: (objectOID: string) => call(() => http.get(`bills/${encodeURIComponent(objectOID)}`).json<BillPage>()),
    billForm: () => call(() => http.get('bill-form').json<BillForm>()),
    issueBill: (body: NewBillBody, idempotencyKey: string) => call(() => http.post('bills', { json: body, headers: { 'Idempotency-Key': idempotencyKey } }).json<{ objectOID: string }>()),
    sendLink: (objectOID: string, channel: 'sms' | 'email', to: string | null) =>
      call(() => http.post(`bills/${encodeURIComponent(objectOID)}/send-link`, { json: { channel, to } }).json<{ id: number; to: string; state: 'sent' | 'failed' }>()),

    refund: (orderId: string, body: RefundBody, idempotencyKey: string) =>
      call(() => http.post(`payments/${encodeURIComponent(orderId)}/refunds`, { json: body, headers: { 'Idempotency-Key': idempotencyKey } }).json<Refund>()),
    capture: (orderId: string, body: CaptureBody, idempotencyKey: string) =>
      call(() => http.post(`payments/${encodeURIComponent(orderId)}/capture`, { json: body, headers: { 'Idempotency-Key': idempotencyKey } }).json<Omit<Payment, 'refunds' | 'actions'>>()),
    release: (orderId: string, idempotencyKey: string) =>
      call(() => http.post(`payments/${encodeURIComponent(orderId)}/release`, { json: {}, headers: { 'Idempotency-Key': idempotencyKey } }).json<Omit<Payment, 'refunds' | 'actions'>>()),
    handOver: (objectOID: string, idempotencyKey: string) =>
      call(() => http.post(`bills/${encodeURIComponent(objectOID)}/handover`, { json: {}, headers: { 'Idempotency-Key': idempotencyKey } }).json<HandoverAnswer>()),
    figures: () => call(() => http.get('figures').json<Figures>()),

    settings: () => call(() => http.get('settings').json<Settings>()),
    saveSettings: (change: SettingsChange) => call(() => http.post('settings', { json: change }).json<Settings>()),
    saveLogo: (image: string | null) => call(() => http.post('settings/logo', { json: { image } }).json<Settings>()),
    testWebhook: () => call(() => http.post('settings/webhook-test', { json: {} }).json<TestDelivery>()),

    staff: () => call(() => http.get('staff').json<{ staff: StaffMember[] }>()),
    addStaff: (email: string, name: string, role: Role) => call(() => http.post('staff', { json: { email, name, role } }).json<{ staff: StaffMember; oneTimePassword: string }>()),
    changeStaff: (id: number, change: { role?: Role; disabled?: boolean }) => call(() => http.post(`staff/${id}`, { json: change }).json<{ staff: StaffMember }>()),
    resetStaffPassword: (id: number) => call(() => http.post(`staff/${id}/password`, { json: {} }).json<{ staff: StaffMember; oneTimePassword: string }>()),

    audit: (page: number) => call(() => http.get('audit', { searchParams: { page: String(page) } }).json<AuditAnswer>()),
  };
}

export type DeskApi = ReturnType<typeof createDeskApi>;
