/**
 * The desk's composition root: read what the page carries (its CSRF token, its config), make the HTTP client and the
 * API, hand them to the actor factory (actors/desk.ts), start the root actor, bind the address bar and the staff
 * member's activity to it, and render. Its own bundle: nothing of it is in the payer's scripts.
 */
import { createRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import { defineDeskActor } from './actors/desk';
import { createDeskApi } from './services/api';
import { newIdempotencyKey, readDeskPage } from './services/deskConfig';
import { csrfHolder, createDeskHttp } from './services/http';
import { pathOf, routeOf, sameRoute } from './services/routes';
import { DeskApp } from './views/DeskApp';
import { Desk } from './views/deskContext';
import './views/desk.css';

/** Activity counts at most this often (a key or a click resets the idle time-out). */
const ACTIVITY_EVERY_MS = 10_000;

function start() {
  const { csrfToken, config } = readDeskPage(document);
  const csrf = csrfHolder(csrfToken);
  const ended = { send: (_: 'signed_out' | 'session_expired') => {} };
  const api = createDeskApi(createDeskHttp({ csrf, onSessionEnded: (code) => ended.send(code) }), csrf);
  const logic = defineDeskActor({ api, newKey: newIdempotencyKey, log: (error) => console.error(error), idleMs: config.idleMs });
  const actor = createActor(logic, { input: { route: routeOf(window.location.pathname) } });
  ended.send = () => actor.send({ type: 'session.ended' });

  // The address bar follows the page the machine opened; Back and Forward open the page their address names.
  actor.subscribe((snapshot) => {
    if (!snapshot.matches('signedIn')) return;
    const path = pathOf(snapshot.context.route);
    if (window.location.pathname !== path) window.history.pushState(null, '', path);
  });
  window.addEventListener('popstate', () => {
    const route = routeOf(window.location.pathname);
    if (!sameRoute(route, actor.getSnapshot().context.route)) actor.send({ type: 'nav.to', route });
  });

  let lastActivity = 0;
  const activity = () => {
    const now = Date.now();
    if (now - lastActivity < ACTIVITY_EVERY_MS) return;
    lastActivity = now;
    actor.send({ type: 'desk.activity' });
  };
  for (const type of ['keydown', 'pointerdown'] as const) document.addEventListener(type, activity, { passive: true });

  actor.start();
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  };
  createRoot(document.getElementById('desk')!).render(
    <Desk.Provider actor={actor} services={{ config, copy, now: () => Date.now() }}>
      <DeskApp />
    </Desk.Provider>,
  );
}

start();
