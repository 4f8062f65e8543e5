/**
 * Who may call a desk route, checked before its body is read: every route names what it needs in its config (`desk`):
 * - 'session': a desk session, signed in or not (the page's first call, the sign-in);
 * - 'signed-in': a member of staff, whatever the role (sign-out, their own password);
 * - a permission (src/desk/services/rules/permissions.ts): a member of staff whose role has it, else 403.
 * Every POST carries the session's CSRF token (X-CSRF-Token), else 403, whatever the route. A member of staff whose
 * password was made for one sign-in may only set their own until they have.
 *
 * The payers' CSRF check (accounts/csrf.ts) does not apply to these routes: they are `csrf: 'exempt'` from it because
 * this hook checks the desk's own session and token instead.
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/store';
import { may, type Permission, type Role } from '../../src/desk/services/rules/permissions';
import { DeskError } from './errors';
import { csrfMatches, findDeskSession, type DeskSessionOptions } from './sessions';
import type { SessionWithStaff } from './staffQueries';

export type DeskAccessRule = 'session' | 'signed-in' | 'password' | Permission;

/** The member of staff a request comes from. */
export interface Staff {
  id: number;
  email: string;
  name: string;
  role: Role;
  mustChangePassword: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    desk?: DeskAccessRule;
  }
  interface FastifyRequest {
    /** The desk session the request came with (null: none, or not a desk route). */
    deskSession: SessionWithStaff | null;
    /** Its member of staff, once signed in. */
    staff: Staff | null;
  }
}

/** The route config of a desk route: its rule, and out of the payers' CSRF check (this hook checks the desk's). */
export const deskRoute = (desk: DeskAccessRule, extra: Record<string, unknown> = {}) => ({ csrf: 'exempt' as const, desk, ...extra });

const staffOf = (session: SessionWithStaff): Staff | null =>
  session.staff_id !== null && session.email && session.role
    ? { id: session.staff_id, email: session.email, name: session.name ?? '', role: session.role, mustChangePassword: session.must_change_password === 1 }
    : null;

/** Adds the check to the desk API's plugin (every route in it must name its rule). */
export function deskAccess(app: FastifyInstance, store: Store, options: DeskSessionOptions): void {
  app.decorateRequest('deskSession', null);
  app.decorateRequest('staff', null);
  app.addHook('onRequest', async (request) => {
    const rule = request.routeOptions.config.desk;
    if (request.is404) return;
    if (!rule) throw new Error(`desk route ${request.routeOptions.url ?? request.url} names no access rule`);
    // The page's first call makes its session itself (routes.ts); every other one needs the cookie's.
    const found = await findDeskSession(store, request, options);
    if (found.kind === 'live') {
      request.deskSession = found.session;
      request.staff = staffOf(found.session);
    }
    if (request.method === 'POST' && (found.kind !== 'live' || !csrfMatches(found.session, request.headers['x-csrf-token']))) {
      if (found.kind === 'ended') throw new DeskError(401, 'session_expired', 'Сеанс завершен: войдите снова');
      throw new DeskError(403, 'csrf', 'Страница устарела: обновите ее');
    }
    if (rule === 'session') return;
    const staff = request.staff;
    if (!staff) {
      throw found.kind === 'ended' ? new DeskError(401, 'session_expired', 'Сеанс завершен: войдите снова') : new DeskError(401, 'signed_out', 'Войдите в кабинет');
    }
    if (rule === 'signed-in') return;
    if (staff.mustChangePassword && rule !== 'password') throw new DeskError(403, 'password_change_required', 'Сначала задайте свой пароль');
    if (rule === 'password') return;
    if (!may(staff.role, rule)) throw new DeskError(403, 'forbidden', 'Недостаточно прав для этого действия');
  });
}
