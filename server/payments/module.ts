/** The payments module: the checkout page and its result pages, and the page's payment calls. */
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../config';
import { pageRoutes } from './pages';
import { paymentRoutes } from './routes';
import { named } from '../operations/named';

export async function paymentsModule(app: FastifyInstance, options: AppOptions): Promise<void> {
  await app.register(named(pageRoutes), { options, pages: app.pages });
  await app.register(named(paymentRoutes), { options });
}
