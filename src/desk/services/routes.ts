/**
 * The desk's pages and their addresses under /desk/: the root machine has a state per page, the address bar shows the
 * page's address, and an address opened (a link, a reload, Back) names the page. Each page names the permission it
 * needs: a page the role may not see is neither linked nor opened.
 */
import type { Permission } from './rules/permissions';

export type DeskRoute =
  | { name: 'bills' }
  | { name: 'newBill' }
  | { name: 'bill'; objectOID: string }
  | { name: 'payments' }
  | { name: 'settings' }
  | { name: 'staff' }
  | { name: 'audit' };

export type RouteName = DeskRoute['name'];

export const ROUTE_PERMISSION: Record<RouteName, Permission> = {
  bills: 'bills.read',
  newBill: 'bills.issue',
  bill: 'bills.read',
  payments: 'bills.read',
  settings: 'settings.manage',
  staff: 'staff.manage',
  audit: 'audit.read',
};

const BASE = '/desk/';

export function pathOf(route: DeskRoute): string {
  switch (route.name) {
    case 'bills':
      return BASE;
    case 'newBill':
      return `${BASE}bills/new`;
    case 'bill':
      return `${BASE}bills/${encodeURIComponent(route.objectOID)}`;
    case 'payments':
      return `${BASE}payments`;
    case 'settings':
      return `${BASE}settings`;
    case 'staff':
      return `${BASE}staff`;
    case 'audit':
      return `${BASE}audit`;
  }
}

/** The page an address names; an unknown one is the bills list. */
export function routeOf(pathname: string): DeskRoute {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length).replace(/\/$/, '') : '';
  if (rest === 'bills/new') return { name: 'newBill' };
  const bill = /^bills\/([A-Za-z0-9_-]{1,64})$/.exec(rest);
  if (bill) return { name: 'bill', objectOID: bill[1]! };
  if (rest === 'payments' || rest === 'settings' || rest === 'staff' || rest === 'audit') return { name: rest };
  return { name: 'bills' };
}

export const sameRoute = (a: DeskRoute, b: DeskRoute) => pathOf(a) === pathOf(b);
