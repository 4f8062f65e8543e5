/** What the desk's routes are given by its module: the store's parties and settings they act through. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppOptions } from '../config';
import type { MailSender } from '../mail/port';
import { fingerprint, idempotent } from '../merchant/idempotency';
import type { ProfileDefaults } from '../profile/profile';
import type { TextProvider } from '../smsProvider/port';
import type { Store } from '../store/store';

export interface DeskDeps {
  options: AppOptions;
  texts: TextProvider;
  mail: MailSender;
  profile: ProfileDefaults;
}

/**
 * Runs a desk POST that makes something (a bill, a refund) under its Idempotency-Key, as the merchant API runs its own:
 * the page sends one key per form it opens, so a double submit or a retry after a lost answer makes one, and answers
 * the first answer again. Keys are the staff member's own (`desk:<id>`), apart from the API keys'.
 */
export async function deskOnce<T>(store: Store, request: FastifyRequest, reply: FastifyReply, statusCode: number, work: (tx: Store) => Promise<T>) {
  const answer = await idempotent<T>(
    // The work is part of the request: its audit line and the events it queues name it.
    store.forRequest(request.id),
    { keyId: `desk:${request.staff!.id}`, idempotencyKey: request.headers['idempotency-key'] as string, fingerprint: fingerprint(request.method, request.url, request.body), statusCode },
    work,
  );
  if (answer.replayed) void reply.header('idempotent-replayed', 'true');
  return reply.code(answer.statusCode).send(answer.body);
}
