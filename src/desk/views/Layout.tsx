import type { ReactNode } from 'react';
import type { Permission } from '../services/rules/permissions';
import { deskMessages as m, roleNames } from '../services/messages';
import type { DeskRoute, RouteName } from '../services/routes';
import { DeskLink } from './common';
import { Desk, useDeskServices } from './deskContext';

const NAV: { route: DeskRoute; label: string; permission: Permission }[] = [
  { route: { name: 'bills' }, label: m.app.navBills, permission: 'bills.read' },
  { route: { name: 'newBill' }, label: m.app.navNewBill, permission: 'bills.issue' },
  { route: { name: 'payments' }, label: m.app.navPayments, permission: 'bills.read' },
  { route: { name: 'settings' }, label: m.app.navSettings, permission: 'settings.manage' },
  { route: { name: 'staff' }, label: m.app.navStaff, permission: 'staff.manage' },
  { route: { name: 'audit' }, label: m.app.navAudit, permission: 'audit.read' },
];

/** Which menu entry a page belongs to (a bill's page is the bills'). */
const sectionOf = (name: RouteName): RouteName => (name === 'bill' ? 'bills' : name);

/** The desk's frame: who is signed in, the menu of what their role may see, sign-out, and the page. */
export function Layout({ children }: { children: ReactNode }) {
  const desk = Desk.useActorRef();
  const me = Desk.useSelector((state) => state.context.me);
  const route = Desk.useSelector((state) => state.context.route);
  const { config } = useDeskServices();
  if (!me) return null;
  return (
    <>
      <a className="skip-link" href="#main">
        {m.app.skip}
      </a>
      <header className="desk-header">
        <div className="desk-header-inner">
          <p className="desk-brand">{m.app.title}</p>
          <div className="desk-user">
            <span>
              {me.name || me.email} · {roleNames[me.role]}
            </span>
            <button type="button" className="button secondary" onClick={() => desk.send({ type: 'desk.signOut' })}>
              {m.app.signOut}
            </button>
          </div>
        </div>
        <nav className="desk-nav" aria-label={m.app.nav}>
          <ul>
            {NAV.filter((entry) => me.permissions.includes(entry.permission)).map((entry) => (
              <li key={entry.route.name}>
                <DeskLink route={entry.route} current={sectionOf(route.name) === entry.route.name}>
                  {entry.label}
                </DeskLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {config.sandbox ? (
        <p className="desk-sandbox">
          {m.app.sandbox} <a href="/sandbox/mail">{m.app.sandboxMail}</a> · <a href="/">{m.app.sandboxSms}</a>
        </p>
      ) : null}
      <main className="desk-main" id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
