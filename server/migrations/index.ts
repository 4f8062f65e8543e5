/**
 * Every schema migration, in the order they apply (store/migrator.ts runs them on start). One file each, named by
 * its place in history and what it adds (the three of the user_version era share legacy.ts); the names below are what
 * `kysely_migration` records, so they never change.
 *
 * Never edit a shipped migration: add the next one (`0006-….ts`, then a line below), written once with Kysely's
 * schema builder for both engines. Money is integer kopecks (bigint) and times are epoch milliseconds (bigint).
 */
import type { Migration } from '../store/migrator';
import { migration as acquirerGateway } from './0004-acquirer-gateway';
import { migration as merchantApiWebhooks } from './0005-merchant-api-webhooks';
import { migration as payLinksAttemptSessions } from './0006-pay-links-attempt-sessions';
import { migration as fiscalReceipts } from './0007-fiscal-receipts';
import { migration as smsProvider } from './0008-sms-provider';
import { migration as refunds } from './0009-refunds';
import { migration as operations } from './0010-operations';
import { migration as payerMoments } from './0011-payer-moments';
import { migration as lifecycleStates } from './0012-lifecycle-states';
import { migration as smsStatusReads } from './0013-sms-status-reads';
import { migration as billParts } from './0014-bill-parts';
import { migration as holds } from './0015-holds';
import { migration as closingReceipts } from './0016-closing-receipts';
import { migration as merchantDesk } from './0017-merchant-desk';
import { billsPaymentsSessions, codeAskersOneWaitingFreeCall, codesGuardsOutboxFreeCalls } from './legacy';

export const migrations: Record<string, Migration> = {
  '0001-bills-payments-sessions': billsPaymentsSessions,
  '0002-codes-guards-outbox-free-calls': codesGuardsOutboxFreeCalls,
  '0003-code-askers-one-waiting-free-call': codeAskersOneWaitingFreeCall,
  '0004-acquirer-gateway': acquirerGateway,
  '0005-merchant-api-webhooks': merchantApiWebhooks,
  '0006-pay-links-attempt-sessions': payLinksAttemptSessions,
  '0007-fiscal-receipts': fiscalReceipts,
  '0008-sms-provider': smsProvider,
  '0009-refunds': refunds,
  '0010-operations': operations,
  '0011-payer-moments': payerMoments,
  '0012-lifecycle-states': lifecycleStates,
  '0013-sms-status-reads': smsStatusReads,
  '0014-bill-parts': billParts,
  '0015-holds': holds,
  '0016-closing-receipts': closingReceipts,
  '0017-merchant-desk': merchantDesk,
};
