/**
 * A throw-away PostgreSQL cluster from Debian's `postgresql` binaries, for tests, the benchmark and `npm run pg:dev`.
 * initdb refuses to run as root, so as root (CI) every binary runs as the `postgres` user; anyone else runs them as
 * themselves. The cluster listens on 127.0.0.1 only, trusts local connections and lives in a temporary folder that
 * `stop()` removes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './freePort';

export interface Cluster {
  /** postgres://postgres@127.0.0.1:port/postgres: the cluster's maintenance database, to create others from. */
  adminUrl: string;
  port: number;
  dir: string;
  /** The URL of one database of this cluster. */
  urlOf(database: string): string;
  stop(): void;
}

/** The newest Debian PostgreSQL `bin` folder with an initdb, or null when PostgreSQL is not installed. */
export function findPostgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the postgres user when we are root. */
function run(bin: string, args: string[]) {
  const [command, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(command, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(bin)} failed (${result.status}): ${result.stderr || result.stdout}`);
}

export interface ClusterOptions {
  /**
   * Durability settings. `tests`: fsync off (a crashed test cluster is thrown away anyway). `realistic`: fsync on and
   * synchronous_commit off, which like SQLite's WAL with synchronous=NORMAL survives a process crash and may lose the
   * last commits only to an operating-system crash.
   */
  durability?: 'tests' | 'realistic';
  maxConnections?: number;
}

/** initdb + pg_ctl start on a free port; resolves once the server accepts connections. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install -y postgresql');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-pg-'));
  if (isRoot()) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);

  const port = await freePort();
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: dir,
    max_connections: String(options.maxConnections ?? 300),
    ...(options.durability === 'realistic' ? { synchronous_commit: 'off' } : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
  };
  const serverOptions = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', serverOptions, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return { adminUrl: urlOf('postgres'), port, dir, urlOf, stop };
}
