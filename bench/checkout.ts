/**
 * The real server as `npm start` runs it (server/main.ts), with the per-request hooks named in BENCH_HOOKS_OFF
 * (comma-separated, of PER_REQUEST_HOOKS) left out: what `npm run bench -- --hooks` starts to see what each hook costs.
 */
import { PER_REQUEST_HOOKS, type PerRequestHook } from '../server/config';
import { optionsFromEnv } from '../server/environment';
import { serve } from '../server/main';

const off = (process.env.BENCH_HOOKS_OFF ?? '').split(',').filter(Boolean);
const unknown = off.filter((hook) => !PER_REQUEST_HOOKS.includes(hook as PerRequestHook));
if (unknown.length > 0) throw new Error(`BENCH_HOOKS_OFF: no such hook ${unknown.join(', ')} (known: ${PER_REQUEST_HOOKS.join(', ')})`);

serve({ ...optionsFromEnv(), hooksOff: off as PerRequestHook[] }).catch((error) => {
  console.error(error);
  process.exit(1);
});
