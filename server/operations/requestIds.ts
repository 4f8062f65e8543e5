/**
 * Every request has an id: the proxy's `X-Request-Id` when a trusted proxy sent a well-formed one, else one made here.
 * It is echoed in the answer and bound to the request's log lines. What the request causes is told it with the store
 * its work runs on (`app.store.forRequest(request.id)`, and the gateway `on` that store): the acquirer exchanges,
 * webhook events and audit lines it leads to are stored with it, and the log lines written outside `request.log` (the
 * gateway's, the store's) name it too. No AsyncLocalStorage carries it: on Node 20 one switches async hooks on for
 * every promise of the process, about a sixth of a status poll's CPU.
 */
import crypto from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A request id taken from outside: 8 to 64 characters of letters, digits, '.', '_', ':' and '-', starting with a
 * letter or a digit. Wide enough for a UUID, nginx's `$request_id` (32 hex) or a tracing id; narrow enough that it can
 * never forge a log line or a header, nor grow a stored row.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,63}$/;

/** An id made here: a random UUID. */
export const newRequestId = (): string => crypto.randomUUID();

/** The names Fastify's trustProxy (proxy-addr) takes for ranges, as the ranges they stand for. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Whether a connection comes from one of the proxies of TRUST_PROXY (addresses, CIDR ranges or the names loopback,
 * linklocal and uniquelocal, as Fastify's trustProxy takes them). An IPv4 peer may show as IPv4-mapped IPv6
 * (`::ffff:10.0.0.5`): it is read as the IPv4.
 */
export function trustedPeer(proxies: readonly string[]): (address: string | undefined) => boolean {
  if (proxies.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of proxies.flatMap((proxy) => NAMED_RANGES[proxy] ?? [proxy])) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address ?? '') === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address!, family);
    else list.addSubnet(address!, Number(prefix), family);
  }
  return (address) => {
    if (!address) return false;
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    return list.check(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Fastify's `genReqId`: the header of a trusted proxy when it fits the pattern (one value: a repeated header is none),
 * else a new id. Nobody else's header is taken: a client could otherwise pass its requests off as another's in the log.
 */
export function requestIdOf(proxies: readonly string[]): (request: RawRequestDefaultExpression) => string {
  const trusted = trustedPeer(proxies);
  return (request) => {
    const given = request.headers[REQUEST_ID_HEADER];
    return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) && trusted(request.socket?.remoteAddress) ? given : newRequestId();
  };
}

/** Echoes the id in every answer: a refusal and a 404 included. */
export function requestIdHooks(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}

/** A log line's binding of the request it is part of: none for the server's own work. */
export const requestBinding = (requestId: string | null | undefined): { reqId?: string } => (requestId ? { reqId: requestId } : {});
