/**
 * `npm run desk:user -- --email someone@example.com --role manager|accountant|admin [--name "Имя"] [--password …]`:
 * adds a member of the merchant's staff to the desk, or gives an existing one this role and a new password. Without
 * --password it prints a one-time password, which the desk asks them to replace at their first sign-in; with it, that
 * is the password (at least 10 characters). Their open sessions end either way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { optionsFromEnv } from '../environment';
import { migrations } from '../migrations';
import { openStore } from '../store/store';
import { isRole, ROLES } from '../../src/desk/services/rules/permissions';
import { putStaff, StaffRefused } from './staff';

const USAGE = `Usage: npm run desk:user -- --email someone@example.com --role ${ROLES.join('|')} [--name "Имя Фамилия"] [--password <at least 10 characters>]`;

/** The command's arguments: `--name value` pairs; anything else is a mistake to say. */
export function parseArguments(argv: readonly string[]): { email: string; role: string; name?: string; password?: string } | string {
  const given = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]!;
    const value = argv[i + 1];
    if (!['--email', '--role', '--name', '--password'].includes(name) || value === undefined || value.startsWith('--')) return `Unknown or incomplete argument: ${name}\n${USAGE}`;
    given.set(name.slice(2), value);
  }
  const email = given.get('email');
  const role = given.get('role');
  if (!email || !role) return USAGE;
  if (!isRole(role)) return `--role must be one of ${ROLES.join(', ')}\n${USAGE}`;
  return { email, role, ...(given.has('name') ? { name: given.get('name')! } : {}), ...(given.has('password') ? { password: given.get('password')! } : {}) };
}

async function main() {
  const parsed = parseArguments(process.argv.slice(2));
  if (typeof parsed === 'string') {
    console.error(parsed);
    process.exitCode = 2;
    return;
  }
  const options = optionsFromEnv();
  if (!options.databaseUrl) fs.mkdirSync(path.dirname(options.databasePath), { recursive: true });
  const store = await openStore({ databaseUrl: options.databaseUrl, databasePath: options.databasePath, now: Date.now, migrations });
  try {
    const { staff, oneTimePassword } = await putStaff(store, { email: parsed.email, role: parsed.role as (typeof ROLES)[number], ...(parsed.name !== undefined ? { name: parsed.name } : {}), ...(parsed.password !== undefined ? { password: parsed.password } : {}) }, options.passwordCost, true);
    console.log(`Desk ${staff.role}: ${staff.email}`);
    console.log(oneTimePassword ? `One-time password: ${oneTimePassword} (asked to be replaced at the first sign-in at ${options.publicUrl}/desk/)` : 'Password set as given.');
  } catch (error) {
    if (!(error instanceof StaffRefused)) throw error;
    console.error(`${error.message}${error.fields ? `: ${error.fields.map((f) => `${f.field} — ${f.message}`).join('; ')}` : ''}`);
    process.exitCode = 1;
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
