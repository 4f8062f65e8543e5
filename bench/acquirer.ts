import autocannon from 'autocannon';
import { callbackChecksum } from '../server/acquirer/checksum';
import { acquirerOrderOf, freshBill, openTab, payBody } from '../test/support/httpTab';

/** The callback key the bench's checkout server is started with (ACQUIRER_CALLBACK_KEY), so the bench can sign callbacks. */
export const BENCH_CALLBACK_KEY = 'bench-callback-key';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Pay through the acquirer gateway: `count` Pays one after another, each on a fresh bill (so each makes an attempt and
 * registers an order at the sandbox's RBS fake over HTTP: register.do; fast payment also get.do and its QR).
 */
export async function payLatency(base: string, count = 60): Promise<{ card: { p50Ms: number; p99Ms: number }; sbp: { p50Ms: number; p99Ms: number }; count: number }> {
  const tab = await openTab(base);
  const measure = async (code: 'ALL' | 'SBP') => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const bill = await freshBill(base);
      const started = performance.now();
      const answer = await tab.post('/api/getPaymentUrl/', payBody(bill, code));
      times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`Pay answered ${answer.status}`);
    }
    times.sort((a, b) => a - b);
    return { p50Ms: Math.round(percentile(times, 50)), p99Ms: Math.round(percentile(times, 99)) };
  };
  return { card: await measure('ALL'), sbp: await measure('SBP'), count };
}

/**
 * Signed callbacks for one settled order, 50 connections for 10 s: each is checked (HMAC), its order looked up, and
 * found settled (a duplicate, as the acquirer's retries are).
 */
export async function callbackRate(base: string): Promise<{ rps: number; p99Ms: number; non2xx: number }> {
  const tab = await openTab(base);
  const bill = await freshBill(base);
  const answer = (await (await tab.post('/api/getPaymentUrl/', payBody(bill, 'ALL'))).json()) as { info: { orderId: string } };
  const mdOrder = await acquirerOrderOf(base, answer.info.orderId);
  const params = { mdOrder, orderNumber: answer.info.orderId, operation: 'deposited', status: '1' };
  const query = new URLSearchParams({ ...params, checksum: callbackChecksum(params, BENCH_CALLBACK_KEY) });
  const result = await autocannon({ url: `${base}/api/acquirer/callback?${query}`, connections: 50, duration: 10 });
  return { rps: Math.round(result.requests.average), p99Ms: result.latency.p99, non2xx: result.non2xx };
}
