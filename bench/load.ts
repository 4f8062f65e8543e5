import autocannon from 'autocannon';
import { freshBill, openTab, payBody, startCardPayment } from '../test/support/httpTab';

export interface LoadFigures {
  rps: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

const DURATION_S = 10;
const CONNECTIONS = 50;

function figures(result: autocannon.Result): LoadFigures {
  return {
    rps: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** How long a load runs: 10 s by default, or a given number of seconds, or until a given number of requests are answered. */
export type LoadLength = { durationS: number } | { requests: number };

/** 50 connections for 10 s (or `length`) posting one JSON body with a payer's tab's headers. */
async function postLoad(url: string, headers: Record<string, string>, body: unknown, length: LoadLength = { durationS: DURATION_S }): Promise<LoadFigures> {
  // Autocannon ends a run only at one of its samples, a second apart by default: a run of a fixed number of requests
  // would last whole seconds, whatever its last answer's time (its rps 3000, 1500 or 1000 for 3,000 requests). Sampled
  // every 10 ms, it ends within 10 ms of its last answer.
  const until = 'requests' in length ? { amount: length.requests, sampleInt: 10 } : { duration: length.durationS };
  return figures(await autocannon({ url, method: 'POST', headers, body: JSON.stringify(body), connections: CONNECTIONS, ...until }));
}

/** `/api/getResult/` for a pending card payment, as the result page polls it: a function that runs one 10 s load. */
export async function getResultLoad(base: string, length?: LoadLength): Promise<() => Promise<LoadFigures>> {
  const tab = await openTab(base);
  const bill = await freshBill(base);
  const orderId = await startCardPayment(tab, bill);
  return () => postLoad(`${base}/api/getResult/`, tab.headers, { transactionID: orderId, billOID: bill }, length);
}

/** Both loads' runs (rps and p99 averaged), and the rps of every run. */
export interface ComparedLoads {
  a: LoadFigures & { runsRps: number[] };
  b: LoadFigures & { runsRps: number[] };
}

const mean = (values: number[]) => Math.round(values.reduce((sum, v) => sum + v, 0) / values.length);

function merged(runs: LoadFigures[]): LoadFigures & { runsRps: number[] } {
  return {
    rps: mean(runs.map((r) => r.rps)),
    p99Ms: mean(runs.map((r) => r.p99Ms)),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    runsRps: runs.map((r) => r.rps),
  };
}

/**
 * Two loads compared on a shared machine: run A, B, B, A and average each, so that a change of the machine's other
 * load during the runs weighs on both alike (a ratio of two runs minutes apart says more about the machine).
 */
export async function compareLoads(a: () => Promise<LoadFigures>, b: () => Promise<LoadFigures>): Promise<ComparedLoads> {
  const first = await a();
  const second = await b();
  const third = await b();
  const fourth = await a();
  return { a: merged([first, fourth]), b: merged([second, third]) };
}

/**
 * `/api/getResult/` on several server processes of one database at once, the connections split evenly (as a load
 * balancer would), each polling an order of its own made through the first process. rps is the sum; p99 the worst.
 */
export async function getResultLoadSpread(bases: string[]): Promise<LoadFigures & { perProcessRps: number[] }> {
  const tab = await openTab(bases[0]!);
  const polls = [];
  for (const base of bases) {
    const bill = await freshBill(bases[0]!);
    polls.push({ base, body: JSON.stringify({ transactionID: await startCardPayment(tab, bill), billOID: bill }) });
  }
  const connections = Math.round(CONNECTIONS / bases.length);
  const results = await Promise.all(
    polls.map(({ base, body }) => autocannon({ url: `${base}/api/getResult/`, method: 'POST', headers: tab.headers, body, connections, duration: DURATION_S })),
  );
  const each = results.map(figures);
  return {
    rps: each.reduce((sum, f) => sum + f.rps, 0),
    p99Ms: Math.max(...each.map((f) => f.p99Ms)),
    requests: each.reduce((sum, f) => sum + f.requests, 0),
    non2xx: each.reduce((sum, f) => sum + f.non2xx, 0),
    errors: each.reduce((sum, f) => sum + f.errors, 0),
    perProcessRps: each.map((f) => f.rps),
  };
}

/** The bare Fastify route of bench/hello.ts. */
export async function helloLoad(base: string): Promise<LoadFigures> {
  return figures(await autocannon({ url: `${base}/`, connections: CONNECTIONS, duration: DURATION_S }));
}

/**
 * A bare POST yardstick of bench/hello.ts (`/post` or `/post-read`) with the status poll's body (a pending order of
 * the yardstick's own database) and the same request headers a payer's tab on `checkoutBase` sends: a function that
 * runs one 10 s load.
 */
export async function barePostLoad(helloBase: string, checkoutBase: string, route: '/post' | '/post-read', length?: LoadLength): Promise<() => Promise<LoadFigures>> {
  const tab = await openTab(checkoutBase);
  const order = await (await fetch(`${helloBase}/order`)).json();
  return () => postLoad(`${helloBase}${route}`, tab.headers, order, length);
}

/** Creates `count` fresh bills quickly (autocannon itself posts them) and answers their objectOIDs. */
async function manyBills(base: string, count: number): Promise<string[]> {
  const oids: string[] = [];
  await autocannon({
    url: base,
    connections: 20,
    amount: count,
    requests: [
      {
        method: 'POST',
        path: '/sandbox/bills',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: 'demo-anon' }),
        onResponse: (status, body) => {
          if (status === 201) oids.push((JSON.parse(body) as { objectOID: string }).objectOID);
        },
      },
    ],
  });
  return oids;
}

/**
 * `/api/getPaymentUrl/` on distinct bills: every request starts a new attempt (a write), each on a bill made
 * beforehand. The run ends after 10 s or when the bills run out, whichever comes first, so no request repeats a
 * bill (a repeat would take the cheaper idempotent path); rps is requests over the run's own duration.
 */
export async function paymentUrlLoad(base: string, bills = 20_000): Promise<LoadFigures & { billsMade: number; durationS: number; distinct: boolean }> {
  const tab = await openTab(base);
  const oids = await manyBills(base, bills);
  if (oids.length === 0) throw new Error('no bills were made');
  let next = 0;
  let instance: { stop(): void } | null = null;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: DURATION_S,
        requests: [
          {
            method: 'POST',
            path: '/api/getPaymentUrl/',
            headers: tab.headers,
            setupRequest: (request) => {
              if (next === oids.length - 1) instance?.stop();
              return { ...request, body: JSON.stringify(payBody(oids[Math.min(next++, oids.length - 1)]!)) };
            },
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
  });
  const durationS = result.duration;
  return {
    ...figures(result),
    rps: Math.round(result.requests.total / durationS),
    billsMade: oids.length,
    durationS: Math.round(durationS * 10) / 10,
    distinct: result.requests.total <= oids.length,
  };
}
