import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { copyDemoBill } from '../demoBills';
import { objectOidSchema } from '../routes/schemas';

/** `POST /sandbox/bills` `{ from }`: a fresh unpaid copy of a demo bill (DESIGN §7). */
export const billsSandbox: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.post(
    '/sandbox/bills',
    { schema: { body: { type: 'object', required: ['from'], additionalProperties: false, properties: { from: objectOidSchema } } } },
    async (request, reply) => {
      const objectOID = await copyDemoBill(app.store, request.body.from);
      if (!objectOID) return reply.code(404).send({ success: false, error: 'Нет такого демо-счета' });
      return reply.code(201).send({ objectOID });
    },
  );
};
