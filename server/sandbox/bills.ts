import type { FastifyInstance } from 'fastify';
import { copyDemoBill } from '../demoBills';
import type { Store } from '../store/store';
import { objectOidSchema } from '../routes/schemas';

/** `POST /sandbox/bills` `{ from }`: a fresh unpaid copy of a demo bill (DESIGN §7). */
export async function billsSandbox(app: FastifyInstance, { store }: { store: Store }) {
  app.post<{ Body: { from: string } }>(
    '/sandbox/bills',
    { schema: { body: { type: 'object', required: ['from'], additionalProperties: false, properties: { from: objectOidSchema } } } },
    async (request, reply) => {
      const objectOID = copyDemoBill(store, request.body.from);
      if (!objectOID) return reply.code(404).send({ success: false, error: 'Нет такого демо-счета' });
      return reply.code(201).send({ objectOID });
    },
  );
}
