/**
 * Cookies, read and set by name. A route reads at most one or two (the session's, the desk's, the manager's) and sets
 * at most one, so a cookie is looked for when a route asks for it. A plugin that parsed every request's cookies in a
 * hook, and ran a second hook on every answer to write the ones set, made the status poll (the hottest route, which
 * reads one cookie and sets none) pay two hooks and a parse for a lookup.
 */
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The cookie of that name the request came with (the first, if it came twice), or undefined. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  // Most requests of a payer's page carry one cookie, the session's: a header that cannot hold the name is not parsed.
  if (!header || !header.includes(name)) return undefined;
  return fastifyCookie.parse(header)[name];
}

export interface CookieOptions {
  path: string;
  httpOnly: true;
  sameSite: 'lax' | 'strict';
  /** Sent back only over https: true when the checkout's public URL is https. */
  secure: boolean;
}

/**
 * Sets a cookie in the answer, for the browser's session (no expiry: the server ends sessions). A cookie of the same
 * name set earlier in the same answer is replaced, not sent twice.
 */
export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  const earlier = reply.getHeader('set-cookie');
  const others = (earlier === undefined ? [] : [earlier].flat().map(String)).filter((line) => !line.startsWith(`${name}=`));
  const lines = [...others, fastifyCookie.serialize(name, value, options)];
  void reply.removeHeader('set-cookie').header('set-cookie', lines.length === 1 ? lines[0] : lines);
}
