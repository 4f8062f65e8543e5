/**
 * The desk's bills: the list (search, statuses, newest first, a page at a time), a bill's page, the new-bill form's
 * schema and issuing a bill, sending its pay link. Issuing posts the merchant API's own body to the same code (one
 * validation, the same answers and webhooks), under an Idempotency-Key.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { createBill } from '../billing/bills';
import { billsPage } from '../billing/search';
import type { BillStatus } from '../billing/status';
import { billInputOf, serverMaximums } from '../merchant/billInput';
import { createBillBody, idempotencyHeaders } from '../merchant/schemas';
import { billView, money } from '../merchant/views';
import { deskRoute } from './access';
import { audit } from './audit';
import { billPage } from './billPage';
import { deskOnce, type DeskDeps } from './deps';
import { sendPayLink } from './links';
import { billParams, billsQuery, sendLinkBody } from './schemas';
import { billListItem } from './views';

export const BILLS_PAGE = 20;

export const billRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: DeskDeps }> = async (app, deps) => {
  const store = app.store;
  const { options } = deps;

  app.get('/bills', { config: deskRoute('bills.read'), schema: { querystring: billsQuery } }, async (request) => {
    const page = Number(request.query.page ?? 1);
    const statuses = (request.query.status ?? '').split(',').filter(Boolean) as BillStatus[];
    const { rows, total } = await billsPage(store, { search: request.query.q ?? '', statuses, page, size: BILLS_PAGE });
    const now = store.now();
    return { bills: rows.map((bill) => billListItem(bill, now)), page, pageSize: BILLS_PAGE, total };
  });

  app.get('/bills/:objectOID', { config: deskRoute('bills.read'), schema: { params: billParams } }, async (request) =>
    billPage({ store, publicUrl: app.appOptions.publicUrl, fiscal: options.fiscal, mail: deps.mail.configured }, request.staff!, request.params.objectOID),
  );

  // The form is built from the API's own schema of a new bill: its fields, limits and code lists.
  app.get('/bill-form', { config: deskRoute('bills.issue') }, async () => ({
    schema: createBillBody,
    // A new position starts with the server's fiscal defaults (FISCAL_DEFAULT_*).
    fiscal: { vat: options.fiscal.vat, paymentMethod: options.fiscal.paymentMethod, paymentObject: options.fiscal.paymentObject },
  }));

  app.post(
    '/bills',
    { config: deskRoute('bills.issue'), schema: { headers: idempotencyHeaders, body: createBillBody } },
    async (request, reply) => {
      const staff = request.staff!;
      const input = billInputOf(request.body, serverMaximums(options));
      return deskOnce(store, request, reply, 201, async (tx) => {
        const bill = await createBill(tx, input);
        await audit(tx, staff, 'bill.issued', bill.oid, { amount: money(bill.sum_kopecks).value });
        return billView(tx, bill, app.appOptions.publicUrl, options.fiscal);
      });
    },
  );

  app.post('/bills/:objectOID/send-link', { config: deskRoute('links.send'), schema: { params: billParams, body: sendLinkBody } }, async (request) => {
    const sent = await sendPayLink(
      { store: store.forRequest(request.id), texts: deps.texts, mail: deps.mail, profile: deps.profile, publicUrl: () => app.appOptions.publicUrl },
      request.staff!,
      request.params.objectOID,
      request.body.channel,
      request.body.to ?? null,
    );
    return { id: sent.id, channel: sent.channel, to: sent.recipient, state: sent.state };
  });
};
