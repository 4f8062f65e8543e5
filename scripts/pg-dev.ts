/**
 * `npm run pg:dev`: a throw-away local PostgreSQL cluster for development (Debian's `postgresql` binaries, run as the
 * `postgres` user when you are root). Prints the DATABASE_URL to start servers with and stops the cluster, deleting
 * its data, on Ctrl-C. `npm run pg:dev -- npm start` runs a command with DATABASE_URL set instead, and stops the
 * cluster when that command ends.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { startCluster } from './pgCluster';

async function main() {
  const cluster = await startCluster({ durability: 'realistic' });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cluster.stop();
    process.stdout.write('PostgreSQL stopped, its data deleted.\n');
  };
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));

  const client = new pg.Client({ connectionString: cluster.adminUrl });
  await client.connect();
  await client.query('CREATE DATABASE checkout');
  await client.end();
  const url = cluster.urlOf('checkout');

  const command = process.argv.slice(2);
  if (command.length > 0) {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } });
    child.once('exit', (code) => process.exit(code ?? 1));
    return;
  }
  process.stdout.write(
    [
      `PostgreSQL ${cluster.port} is running (data in ${cluster.dir}).`,
      '',
      `  DATABASE_URL=${url}`,
      '',
      'Start any number of servers on it, each on a port of its own, e.g.:',
      `  DATABASE_URL=${url} PORT=3000 npm start`,
      `  DATABASE_URL=${url} PORT=3001 npx tsx server/main.ts`,
      '',
      'Ctrl-C stops the cluster and deletes its data.',
      '',
    ].join('\n'),
  );
  // Wait for Ctrl-C.
  setInterval(() => {}, 1 << 30);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
