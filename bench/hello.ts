import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { seedDemo } from '../server/sandbox/demoBills';
import { startPayment } from '../server/payments/start';
import { resultSchema } from '../server/payments/routes';
import { openStore } from '../server/store/store';
import { insertSession } from '../server/accounts/sessionQueries';
import { billByOid, insertBill, insertType, typesOfBill } from '../server/billing/queries';
import { pollStatus } from '../server/payments/poll';
import { migrations } from '../server/migrations';

/**
 * The bench's yardsticks, bare Fastify routes with no plugins, no hooks and no cookies:
 * - `GET /`: the helloRps;
 * - `POST /post`: the status poll's JSON body with its request and response schemas, answered without reading
 *   anything (what Fastify itself costs for a small JSON POST);
 * - `POST /post-read`: the same plus the poll's one database read (`store.pollStatus`: the session's token and the
 *   order's status together) on a database opened as the server opens it (DATABASE_URL: PostgreSQL; otherwise a
 *   SQLite file, WAL).
 * Between them and /api/getResult/ lies only what the checkout adds to every request: the session cookie, comparing
 * the CSRF token and the security headers.
 */
async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hello-'));
  const store = await openStore({ migrations, databaseUrl: process.env.DATABASE_URL || null, databasePath: path.join(dir, 'yardstick.sqlite'), now: Date.now });
  await seedDemo(store, 1024);
  const bill = (await billByOid(store, 'demo-anon'))!;
  const types = await typesOfBill(store, bill.oid);
  // Each yardstick process polls an attempt of its own, so several may share one database.
  const copy = `yardstick-${process.pid}`;
  await store.transaction(async (tx) => {
    if (await billByOid(tx, copy)) return;
    const { created_at: _c, paid_order_id: _p, status: _s, ...row } = bill;
    await insertBill(tx, { ...row, oid: copy, link_id: copy });
    for (const type of types) await insertType(tx, { ...type, oid: `${copy}.${type.code}`, bill_oid: copy });
  });
  const started = await startPayment(store, { bill: (await billByOid(store, copy))!, type: (await typesOfBill(store, copy))[0], points: 0, email: null, userOid: null, managerId: null, sessionId: null });
  const sessionId = `yardstick-${process.pid}`;
  await insertSession(store, sessionId, 'token');

  const app = Fastify({ logger: false }).withTypeProvider<JsonSchemaToTsProvider>();
  app.get('/', async () => ({ hello: 'world' }));
  app.get('/order', async () => ({ transactionID: started.attempt.order_id, billOID: copy }));
  app.post('/post', { schema: resultSchema }, async (request) => ({ success: true, status: 'created' as const, objectOID: request.body.billOID }));
  app.post('/post-read', { schema: resultSchema }, async (request) => {
    const found = await pollStatus(store, sessionId, request.body.transactionID, request.body.billOID);
    return { success: true, status: found.status, objectOID: found.bill ?? undefined };
  });
  app.addHook('onClose', async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(`hello listening on ${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
