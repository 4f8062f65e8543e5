/**
 * The desk's answers to what it refuses: the merchant API's one shape, `{ error: { code, message, fields? } }`, so the
 * domain's refusals read the same at both doors (the same codes, the same field problems); the desk's own refusals
 * (not signed in, no permission, a stale page) add codes of their own, with messages in Russian.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badInputCode, domainError, validationFields } from '../merchant/errors';
import { LogoInvalid, ProfileInvalid } from '../profile/profile';
import { StaffRefused } from './staff';

export type DeskErrorCode =
  | 'signed_out'
  | 'session_expired'
  | 'csrf'
  | 'forbidden'
  | 'password_change_required'
  | 'wrong_credentials'
  | 'locked'
  | 'bill_not_payable'
  | 'no_recipient'
  | 'too_many_sends'
  | 'send_failed'
  | 'mail_off'
  | 'webhook_off'
  | StaffRefused['code'];

export class DeskError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: DeskErrorCode | ApiError['code'],
    message: string,
    readonly fields?: { field: string; message: string }[],
  ) {
    super(message);
  }
}

const send = (reply: FastifyReply, error: { statusCode: number; code: string; message: string; fields?: { field: string; message: string }[] | undefined }) =>
  reply.code(error.statusCode).send({ error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } });

const STAFF_STATUS: Record<StaffRefused['code'], number> = { invalid_request: 400, staff_exists: 409, not_found: 404, last_admin: 409, wrong_password: 400 };

/** The desk API's error handler. */
export function deskErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof DeskError || error instanceof ApiError) return send(reply, error);
  const domain = domainError(error);
  if (domain) return send(reply, domain);
  if (error instanceof StaffRefused) return send(reply, { statusCode: STAFF_STATUS[error.code], code: error.code, message: error.message, fields: error.fields });
  if (error instanceof ProfileInvalid) return send(reply, { statusCode: 400, code: 'invalid_request', message: 'Проверьте поля формы', fields: error.fields });
  if (error instanceof LogoInvalid) return send(reply, { statusCode: 400, code: 'invalid_request', message: error.message, fields: [{ field: 'logo', message: error.message }] });
  if (error.validation) {
    const fields = validationFields(error);
    return send(reply, { statusCode: 400, code: badInputCode(fields), message: 'The request has invalid fields', fields });
  }
  const status = error.statusCode ?? 500;
  if (status === 429) return send(reply, { statusCode: 429, code: 'rate_limited', message: error.message });
  if (status >= 500) {
    request.log.error({ err: error }, 'desk request failed');
    return send(reply, { statusCode: 500, code: 'internal_error', message: 'Внутренняя ошибка сервера' });
  }
  return send(reply, { statusCode: status === 404 ? 404 : 400, code: status === 404 ? 'not_found' : 'invalid_request', message: error.message });
}
