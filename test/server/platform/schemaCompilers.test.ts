import Fastify from 'fastify';
import { named } from '../../../server/operations/named';
import { everyProblemCompiler, onePerProcess } from '../../../server/platform/schemaCompilers';

/** What building many apps in one process (the test suites do) reuses, and what it must still tell apart. */
describe('schema compilers once per process', () => {
  const body = () => ({ type: 'object', required: ['amount'], properties: { amount: { type: 'integer', minimum: 1 } } });
  const route = (schema: unknown) => ({ schema, method: 'POST', url: '/x', httpPart: 'body' });

  test('equal schemas written anew share one validator; a different schema gets its own, and each validates by its own rule', () => {
    const options = { customOptions: { coerceTypes: false } };
    const compile = onePerProcess.buildValidator!({}, options as never) as unknown as (route: unknown) => (data: unknown) => boolean;
    const again = onePerProcess.buildValidator!({}, { customOptions: { coerceTypes: false } } as never) as unknown as typeof compile;
    const first = compile(route(body()));
    expect(again(route(body()))).toBe(first);
    const other = compile(route({ ...body(), properties: { amount: { type: 'integer', minimum: 100 } } }));
    expect(other).not.toBe(first);
    expect([first({ amount: 50 }), other({ amount: 50 })]).toEqual([true, false]);
    expect(first({ amount: '50' })).toBe(false);
  });

  test('other options make another validator: the merchant API reports every problem, the page only the first', () => {
    const pageCompile = onePerProcess.buildValidator!({}, { customOptions: { allErrors: false } } as never) as unknown as (route: unknown) => {
      (data: unknown): boolean;
      errors?: unknown[] | null;
    };
    const twoRules = { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' }, b: { type: 'string' } } };
    const pageValidate = pageCompile(route(twoRules));
    const apiValidate = everyProblemCompiler()(route(twoRules) as never) as typeof pageValidate;
    expect(apiValidate).not.toBe(pageValidate);
    expect(pageValidate({})).toBe(false);
    expect(pageValidate.errors).toHaveLength(1);
    expect(apiValidate({})).toBe(false);
    expect(apiValidate.errors).toHaveLength(2);
  });

  test('an answer serializer is shared too, and writes only what its schema names', () => {
    const compile = onePerProcess.buildSerializer!({}, {}) as unknown as (route: unknown) => (doc: unknown) => string;
    const answer = () => ({ type: 'object', properties: { paid: { type: 'boolean' } } });
    const serialize = compile({ schema: answer(), method: 'GET', url: '/x', httpStatus: '200' });
    expect(compile({ schema: answer(), method: 'GET', url: '/y', httpStatus: '200' })).toBe(serialize);
    expect(serialize({ paid: true, secret: 'x' })).toBe('{"paid":true}');
  });

  test('two apps in one process: the second refuses bad input as the first does', async () => {
    const build = async () => {
      const app = Fastify({ schemaController: { compilersFactory: onePerProcess }, ajv: { customOptions: { coerceTypes: false } } });
      app.post('/pay', { schema: { body: body() } }, async () => ({ ok: true }));
      return app;
    };
    for (const app of [await build(), await build()]) {
      expect((await app.inject({ method: 'POST', url: '/pay', payload: { amount: 5 } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'POST', url: '/pay', payload: { amount: 0 } })).statusCode).toBe(400);
      await app.close();
    }
  });
});

test('a plugin of ours is registered under its own name', async () => {
  const app = Fastify();
  async function refundRoutes() {}
  await app.register(named(refundRoutes));
  await app.ready();
  expect((refundRoutes as unknown as Record<symbol, string>)[Symbol.for('fastify.display-name')]).toBe('refundRoutes');
  expect(app.printPlugins()).toContain('refundRoutes');
  await app.close();
});
