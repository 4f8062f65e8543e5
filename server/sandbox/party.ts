/** What every sandbox party shares: the frame of its pages, the route config of its own calls, its fault switches. */
import type { FastifyInstance } from 'fastify';
import { html, type Html } from '../platform/render';

/**
 * The route config of a sandbox party's own calls: they stand for other hosts (the acquirer's form, a bank app, the
 * merchant's webhook inbox, the SMS provider and the phone network, a tester's script) and post their own forms, not
 * bound to our session, so the CSRF check does not apply.
 */
export const otherParty = { csrf: 'exempt' } as const;

/** A small server-rendered page for the sandbox parties: no script unless given, one shared stylesheet. */
export function sandboxPage(title: string, body: Html, options: { scripts?: string[] } = {}): string {
  const scripts = options.scripts ?? [];
  return html`<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/sandbox/sandbox.css">
</head>
<body>
<main class="sandbox">
<p class="sandbox-badge">Песочница: тестовая среда, деньги не списываются</p>
${body}
</main>
${scripts.map((src) => html`<script src="${src}"></script>\n`)}
</body>
</html>`.markup;
}

/**
 * A fake's fault switches (sandbox only, for tests and demos): `POST url` with `{ fault, on }` and, to switch it for one
 * thing only, the field `scope` names (an order number, a phone) matching its pattern.
 */
export function faultSwitches<Fault extends string>(
  app: FastifyInstance,
  url: string,
  faults: readonly Fault[],
  scope: { name: string; pattern: string },
  setFault: (fault: Fault, on: boolean, scoped?: string) => void,
): void {
  const body = {
    type: 'object',
    required: ['fault', 'on'],
    additionalProperties: false,
    properties: { fault: { type: 'string', enum: faults }, on: { type: 'boolean' }, [scope.name]: { type: 'string', pattern: scope.pattern } },
  };
  app.post(url, { config: otherParty, schema: { body } }, async (request) => {
    const asked = request.body as Record<string, unknown> & { fault: Fault; on: boolean };
    setFault(asked.fault, asked.on, asked[scope.name] as string | undefined);
    return { success: true };
  });
}

/** The faults a fake shows: each switched on for one thing (an order number, a phone) or for every thing ('*'). */
export function faultSet<Fault extends string>(): {
  setFault(fault: Fault, on: boolean, scoped?: string): void;
  hasFault(fault: Fault, scoped: string): boolean;
} {
  const faults = new Map<string, Set<Fault>>();
  return {
    setFault(fault, on, scoped = '*') {
      const set = faults.get(scoped) ?? new Set<Fault>();
      if (on) set.add(fault);
      else set.delete(fault);
      faults.set(scoped, set);
    },
    hasFault: (fault, scoped) => faults.get('*')?.has(fault) || faults.get(scoped)?.has(fault) || false,
  };
}
