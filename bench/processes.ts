import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(__dirname, '..');

export interface ChildServer {
  child: ChildProcess;
  /** http://127.0.0.1:port */
  base: string;
  port: number;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.once('exit', () => resolve())));

/**
 * Runs a TypeScript entry as its own Node process (node --import tsx, so the pid is the server's own and its RSS
 * is the server's alone) and resolves once it prints the line `pattern` captures the port from.
 */
function startTs(entry: string, env: Record<string, string>, pattern: RegExp): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = pattern.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onData);
        // Keep draining so a chatty child never blocks on a full pipe.
        child.stdout!.resume();
        child.stderr!.on('data', (c: Buffer) => process.stderr.write(`[${path.basename(entry)}] ${c}`));
        resolve({
          child,
          port: Number(port),
          base: `http://127.0.0.1:${port}`,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && !child.signalCode) child.kill(signal);
            await exited(child);
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code}:\n${output}`));
    });
  });
}

/** The real server (`server/main.ts`) on a free port, its own database, rate limit off, logging off. */
export function startCheckoutServer(databasePath: string, distDir: string): Promise<ChildServer> {
  return startTs('server/main.ts', { DATABASE_PATH: databasePath, DIST_DIR: distDir, RATE_LIMIT_PER_MINUTE: '0' }, /Checkout is running on http:\/\/localhost:(\d+)/);
}

/** A bare Fastify route, the yardstick for the server's own overhead. */
export function startHelloServer(): Promise<ChildServer> {
  return startTs('bench/hello.ts', {}, /hello listening on (\d+)/);
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
