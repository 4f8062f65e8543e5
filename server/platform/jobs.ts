import type { FastifyInstance } from 'fastify';

/**
 * A periodic job of this process: `run` every `everyMs` (the timer never keeps the process alive), stopped when the
 * app closes. Every process runs its own; jobs are written so that two processes running one at once do no harm.
 */
export function every(app: FastifyInstance, everyMs: number, run: () => void): void {
  const timer = setInterval(run, everyMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
