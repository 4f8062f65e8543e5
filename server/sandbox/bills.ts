import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { copyDemoBill } from './demoBills';
import { objectOidSchema } from '../platform/schemas';

/** The body of a request for a fresh copy: `{ from }`, the demo bill to copy. */
export const copyBillSchema = { body: { type: 'object', required: ['from'], additionalProperties: false, properties: { from: objectOidSchema } } } as const;

/** `POST /sandbox/bills` `{ from }`: a fresh unpaid copy of a demo bill (DESIGN §7). */
export const billsSandbox: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.post(
    '/sandbox/bills',
    { schema: copyBillSchema },
    async (request, reply) => {
      const objectOID = await copyDemoBill(app.store, request.body.from);
      if (!objectOID) return reply.code(404).send({ success: false, error: 'Нет такого демо-счета' });
      return reply.code(201).send({ objectOID });
    },
  );
};
