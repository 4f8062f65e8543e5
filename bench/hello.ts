import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { seedDemo } from '../server/demoBills';
import { startPayment } from '../server/payments';
import { resultSchema } from '../server/routes/payments';
import { openDatabase } from '../server/store/db';
import { createStore } from '../server/store/store';

type ResultBody = { transactionID: string; billOID: string };

/**
 * The bench's yardsticks, bare Fastify routes with no plugins, no hooks and no cookies:
 * - `GET /`: the helloRps;
 * - `POST /post`: the status poll's JSON body with its request and response schemas, answered without reading
 *   anything (what Fastify itself costs for a small JSON POST);
 * - `POST /post-read`: the same plus the poll's one status read (`store.statusOfOrder` on a database opened as the
 *   server opens it: SQLite file, WAL).
 * Between them and /api/getResult/ lies only what the checkout adds to every request: the session cookie, the CSRF
 * check and the security headers.
 */
async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hello-'));
  const db = openDatabase(path.join(dir, 'yardstick.sqlite'));
  const store = createStore(db, Date.now);
  await seedDemo(store, 1024);
  const bill = store.billByOid('demo-anon')!;
  const started = startPayment(store, { bill, type: store.typesOfBill(bill.oid)[0], points: 0, email: null, userOid: null, managerId: null });

  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  app.get('/order', async () => ({ transactionID: started.attempt.order_id, billOID: bill.oid }));
  app.post<{ Body: ResultBody }>('/post', { schema: resultSchema }, async (request) => ({ success: true, status: 'created', objectOID: request.body.billOID }));
  app.post<{ Body: ResultBody }>('/post-read', { schema: resultSchema }, async (request) => {
    const found = store.statusOfOrder(request.body.transactionID, request.body.billOID);
    return { success: true, status: found?.status ?? null, objectOID: found?.bill };
  });
  app.addHook('onClose', async () => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(`hello listening on ${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
