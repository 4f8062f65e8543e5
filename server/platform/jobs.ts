import type { FastifyInstance } from 'fastify';
import { periodic } from '../operations/workers';

/**
 * A periodic job of this process: `run` every `everyMs` while the app runs (the timer never keeps the process alive),
 * started and stopped with the app's other workers. Every process runs its own; jobs are written so that two
 * processes running one at once do no harm.
 */
export function every(app: FastifyInstance, everyMs: number, run: () => void): void {
  app.workers.add(`a job every ${everyMs} ms`, periodic(everyMs, run));
}
