import fs from 'node:fs';
import { startTs, type ChildServer } from '../test/support/childServer';

export { root, startCheckoutServer, startTs, type ChildServer } from '../test/support/childServer';

/** A bare Fastify route, the yardstick for the server's own overhead. */
export function startHelloServer(env: Record<string, string> = {}): Promise<ChildServer> {
  return startTs('bench/hello.ts', env, /hello listening on (\d+)/);
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round((kb / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}
