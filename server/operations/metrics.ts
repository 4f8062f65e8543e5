/**
 * What the server counts for Prometheus (prom-client): the metrics of this process, counted where things happen by
 * the `record…` functions below, and each app's gauges, read from the database at each scrape (`appMetrics`). A
 * label never carries an id, a phone or an e-mail: only the route's pattern, a method's or an outcome's name from a
 * short fixed list, so the number of series stays small whatever the traffic.
 */
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import { paymentTypeCodes, type PaymentTypeCode } from '../../src/services/rules/paymentKinds';

/** One process serves one app in production: these count for the process (tests that build several apps share them). */
const processRegistry = new Registry();

/** How a payment was paid: its payment type's code, or points alone (no money moved). */
export type PaymentMethod = PaymentTypeCode | 'points';
const paymentMethods: readonly PaymentMethod[] = [...paymentTypeCodes, 'points'];

/**
 * How a Pay ended: sent on to the acquirer's form (or QR, or widget), closed by points, refused, the acquirer
 * unreachable, or failed (a 500).
 */
export const payOutcomes = ['to_acquirer', 'closed_by_points', 'refused', 'acquirer_unavailable', 'failed'] as const;
export type PayOutcome = (typeof payOutcomes)[number];

/** How a payment attempt ended (its final status), or that its money is held on the card for the merchant to capture. */
export const paymentOutcomes = ['held', 'success', 'declined', 'released', 'refunded'] as const;
export type PaymentOutcome = (typeof paymentOutcomes)[number];

/** How a call to the acquirer went: answered, refused with an errorCode, or one of the ways of not answering. */
export type AcquirerCallOutcome = 'ok' | 'refused' | 'timeout' | 'http' | 'not-json' | 'network';

/** What became of one webhook delivery attempt: delivered, failed with a retry due, or failed for good (the last try). */
export const webhookOutcomes = ['delivered', 'retrying', 'failed'] as const;
export type WebhookOutcome = (typeof webhookOutcomes)[number];

/**
 * What the SMS provider did with a text sent: accepted it, refused it (the phone's own status, or the whole request's),
 * or could not be asked (no answer, HTTP ≠ 200, not JSON).
 */
export const smsSendOutcomes = ['accepted', 'refused', 'failed'] as const;
export type SmsSendOutcome = (typeof smsSendOutcomes)[number];

/** The provider's last word on a text it accepted: delivered, or not (expired, deleted, phone off, refused, unknown). */
export const smsDeliveryOutcomes = ['delivered', 'undelivered'] as const;
export type SmsDeliveryOutcome = (typeof smsDeliveryOutcomes)[number];

/**
 * A call check (a phone confirmed by a call from it): started at the provider, confirmed, expired without the call,
 * claimed by two pages at once (neither signed in), or the provider could not be asked or refused it.
 */
export const callCheckOutcomes = ['started', 'confirmed', 'expired', 'conflict', 'failed'] as const;
export type CallCheckOutcome = (typeof callCheckOutcomes)[number];

/** A counter of this process, by the labels named. */
const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
  new Counter({ name, help, labelNames, registers: [processRegistry] });

/** A histogram of this process (durations in seconds), by the labels named. */
const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
  new Histogram({ name, help, labelNames, buckets, registers: [processRegistry] });

/** The buckets of the HTTP requests' durations, in seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** Status classes 1xx to 5xx, by their first digit. */
const STATUS_CLASSES = ['', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/**
 * One route's answers (its method and URL pattern), by status class: the series of the HTTP histogram for that route,
 * counted in place. The route holds it from its registration (`routeTimings`), so answering a request builds no label
 * and looks nothing up: the labels are the route's, known before any request.
 */
export class RouteTimings {
  /** Per status class (1 to 5): a count per bucket, then the +Inf bucket, then the sum of the seconds. */
  readonly counts: (Float64Array | undefined)[] = [];

  constructor(
    readonly method: string,
    readonly route: string,
  ) {}

  observe(statusCode: number, seconds: number): void {
    const statusClass = Math.min(5, Math.max(1, Math.floor(statusCode / 100)));
    const counts = (this.counts[statusClass] ??= new Float64Array(HTTP_BUCKETS.length + 2));
    let bucket = 0;
    while (bucket < HTTP_BUCKETS.length && seconds > HTTP_BUCKETS[bucket]!) bucket += 1;
    counts[bucket] = counts[bucket]! + 1;
    counts[HTTP_BUCKETS.length + 1] = counts[HTTP_BUCKETS.length + 1]! + seconds;
  }
}

/** Every route's series, by method and pattern: the apps of one process answering the same route share its series. */
const routeSeries = new Map<string, RouteTimings>();

/** The series of a route (`unmatched` for the answers of a URL no route answers), made once. */
export function routeTimings(method: string, route: string): RouteTimings {
  const key = `${method} ${route}`;
  let timings = routeSeries.get(key);
  if (!timings) routeSeries.set(key, (timings = new RouteTimings(method, route)));
  return timings;
}

/** A sample of the exposition: a series' labels and value, under the histogram's name or one of its parts'. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/**
 * The HTTP histogram as the registry reads a metric (its name, type and `get()`): the routes' series (RouteTimings)
 * turned into samples at each scrape. prom-client's Histogram would take each request's labels and look its series
 * up by them; here the route holds its series already.
 */
const httpHistogram = {
  name: 'checkout_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status class',
  type: 'histogram',
  aggregator: 'sum',
  async get() {
    const values: Sample[] = [];
    for (const timings of routeSeries.values()) {
      timings.counts.forEach((counts, statusClass) => {
        if (!counts) return;
        const labels = { method: timings.method, route: timings.route, status_class: STATUS_CLASSES[statusClass]! };
        const bucket = (le: number | string, value: number) => values.push({ labels: { ...labels, le }, value, metricName: `${this.name}_bucket` });
        let cumulative = 0;
        HTTP_BUCKETS.forEach((le, index) => bucket(le, (cumulative += counts[index]!)));
        bucket('+Inf', (cumulative += counts[HTTP_BUCKETS.length]!));
        values.push({ labels, value: counts[HTTP_BUCKETS.length + 1]!, metricName: `${this.name}_sum` });
        values.push({ labels, value: cumulative, metricName: `${this.name}_count` });
      });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  },
};
// The registry takes any object with these members; its types name only prom-client's own classes.
processRegistry.registerMetric(httpHistogram as unknown as Metric);

const paymentsStarted = counter('checkout_payments_started_total', 'Pay requests, by payment method and outcome', ['method', 'outcome']);

const paymentsFinished = counter(
  'checkout_payments_finished_total',
  'Payment attempts that reached a final status, by payment method and outcome',
  ['method', 'outcome'],
);

const acquirerCalls = histogram(
  'checkout_acquirer_call_duration_seconds',
  'Calls to the acquirer, by protocol method and outcome, with their durations (the _count is the number of calls)',
  ['method', 'outcome'],
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
);

const webhookDeliveries = counter('checkout_webhook_deliveries_total', 'Webhook delivery attempts, by outcome', ['outcome']);

const smsSends = counter('checkout_sms_sends_total', 'Texts handed to the SMS provider, by outcome', ['outcome']);

const smsDeliveries = counter(
  'checkout_sms_deliveries_total',
  "The SMS provider's final delivery status of the texts it accepted, by outcome",
  ['outcome'],
);

const callChecks = counter('checkout_call_checks_total', 'Call checks (a phone confirmed by a call from it), by outcome', ['outcome']);

const lifecycleMoves = counter(
  'checkout_lifecycle_moves_total',
  "Moves of the money's charts (a payment attempt, a refund, a bill): by chart, the state left, the event, the guard that chose the move ('' for none) and the state entered",
  ['chart', 'from', 'event', 'guard', 'to'],
);

const lifecycleRefusals = counter(
  'checkout_lifecycle_refusals_total',
  "Events a money's chart refused in the state its row was in (nothing written): by chart, state and event",
  ['chart', 'state', 'event'],
);

// Every series an alert may watch exists from the start at 0, so a rate over it is defined before the first event.
for (const method of paymentMethods) {
  for (const outcome of payOutcomes) paymentsStarted.labels(method, outcome).inc(0);
  for (const outcome of paymentOutcomes) paymentsFinished.labels(method, outcome).inc(0);
}
for (const outcome of webhookOutcomes) webhookDeliveries.labels(outcome).inc(0);
for (const outcome of smsSendOutcomes) smsSends.labels(outcome).inc(0);
for (const outcome of smsDeliveryOutcomes) smsDeliveries.labels(outcome).inc(0);
for (const outcome of callCheckOutcomes) callChecks.labels(outcome).inc(0);


/**
 * Every answer timed into its route's series: each route gets, when it is registered, a hook of its own holding its
 * series (the HEAD route Fastify adds to a GET gets its own); an answer no route gave (a 404, a URL the router
 * refused) goes to `unmatched`. Registered before the routes, as the operations module is.
 */
export function httpTimings(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const series = new Map([route.method].flat().map((method) => [method, routeTimings(method, route.url)]));
    const only = series.size === 1 ? [...series.values()][0]! : null;
    const timed: onResponseHookHandler = (request, reply, done) => {
      (only ?? series.get(request.method))?.observe(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    // A new array: Fastify copies a GET's options for its HEAD route, which must not share this route's hook.
    route.onResponse = [...[route.onResponse ?? []].flat(), timed];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) routeTimings(request.method, 'unmatched').observe(reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** One Pay answered; `unknown`: a payment type no bill offers (refused). */
export const recordPaymentStarted = (method: PaymentMethod | 'unknown', outcome: PayOutcome): void => paymentsStarted.labels(method, outcome).inc();

export const recordPaymentFinished = (method: PaymentMethod, outcome: PaymentOutcome): void => paymentsFinished.labels(method, outcome).inc();

export const recordAcquirerCall = (method: string, outcome: AcquirerCallOutcome, ms: number): void => acquirerCalls.labels(method, outcome).observe(ms / 1000);

export const recordWebhookDelivery = (outcome: WebhookOutcome): void => webhookDeliveries.labels(outcome).inc();

/** The SMS code calls this once per text it hands to the provider (sms/send), with what the provider answered. */
export const recordSmsSend = (outcome: SmsSendOutcome): void => smsSends.labels(outcome).inc();

/** The SMS code calls this once per accepted text when the provider's status of it is final (sms/status, a callback). */
export const recordSmsDelivery = (outcome: SmsDeliveryOutcome): void => smsDeliveries.labels(outcome).inc();

/** The call-check code calls this when a check starts (callcheck/add) and once when it ends (callcheck/status). */
export const recordCallCheck = (outcome: CallCheckOutcome): void => callChecks.labels(outcome).inc();

/**
 * A chart moved a row (server/lifecycle/writer.ts, once committed). The labels are the chart's own names of its states,
 * events and guards: a short fixed list.
 */
export const recordLifecycleMove = (chart: string, from: string, event: string, guard: string | null, to: string): void =>
  lifecycleMoves.labels(chart, from, event, guard ?? '', to).inc();

/** A chart refused an event in the state its row was in (server/lifecycle/writer.ts). */
export const recordLifecycleRefusal = (chart: string, state: string, event: string): void => lifecycleRefusals.labels(chart, state, event).inc();

let defaultsCollected = false;

/** The process's own metrics (CPU, memory, event-loop lag, handles, GC), collected once per process. */
function collectProcessDefaults(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: processRegistry });
}

/** One app's metrics: the process's, and its own gauges read at each scrape. */
export interface AppMetrics {
  /**
   * A gauge whose value is read at each scrape. A read that fails keeps the last value (and is logged): the other
   * metrics are still served, and the health check is where an unreachable database shows.
   */
  gauge(name: string, help: string, read: () => number | Promise<number>): void;
  /** The Prometheus text exposition of everything. */
  text(): Promise<string>;
  readonly contentType: string;
}

export function appMetrics(log: (message: string, error: unknown) => void): AppMetrics {
  collectProcessDefaults();
  const registry = new Registry();
  return {
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          try {
            this.set(await read());
          } catch (error) {
            log(`metric ${name} could not be read`, error);
          }
        },
      });
    },
    text: () => Registry.merge([processRegistry, registry]).metrics(),
    contentType: processRegistry.contentType,
  };
}
