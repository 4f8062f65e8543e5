import Fastify from 'fastify';

/** The bench's yardstick: one bare Fastify route, no plugins, no database (issue 8's helloRps). */
async function main() {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(`hello listening on ${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
