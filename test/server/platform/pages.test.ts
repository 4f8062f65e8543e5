import { fillTemplate, html } from '../../../server/platform/render';
import { sandboxPage } from '../../../server/sandbox/party';
import { countRows, openPage, snapshot, startServer, type TestServer } from '../helpers';
import { billByOid, insertBill, insertType } from '../../../server/billing/queries';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const sessionCount = () => countRows(server.app, 'sessions');

/** The answers a page carries for its first requests (its initial-data meta tag). */
const initialDataOf = (body: string): unknown => {
  const content = /<meta name="initial-data" content="([^"]*)"/.exec(body)?.[1];
  const entities: Record<string, string> = { '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };
  return content === undefined ? undefined : JSON.parse(content.replace(/&(quot|#39|lt|gt|amp);/g, (entity) => entities[entity]!));
};

describe('HTML injection through the bill id', () => {
  const refreshAttack = '/pay/x%24%600%3Burl%3Dhttps%3A%2F%2Fevil.example%2F%20http-equiv%3Drefresh%20';

  test.each([
    ['a replacement pattern that once planted a refresh to another site', refreshAttack],
    ['$& in the id', '/pay/y$&z'],
    ["$' and $` in the id", "/pay/a$'b$%60c"],
    ['markup in the id', '/pay/%3Cscript%3Ealert(1)%3C%2Fscript%3E'],
    ['a dot (a payment-type id is no bill id)', '/pay/demo-anon.ALL'],
    ['65 characters', `/pay/${'a'.repeat(65)}`],
    ['more than the router takes', `/pay/${'a'.repeat(120)}`],
    ['a broken percent escape', '/pay/%E0%A4%A'],
  ])('%s: a Russian 404 page, nothing injected, no session started', async (_what, url) => {
    const before = await snapshot(server.app);
    const page = await server.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>Документ не найден</title>');
    expect(page.body).toContain('Документ не найден. Проверьте ссылку');
    expect(page.body).not.toMatch(/http-equiv|evil\.example|<script>alert/);
    expect(page.body.match(/<head>/g)).toHaveLength(1);
    expect(page.body).not.toContain('id="root"');
    expect(page.cookies).toHaveLength(0);
    expect(await snapshot(server.app)).toBe(before);
  });

  test('ids of demo bills and their copies fit the pattern', async () => {
    const copy = (await server.app.inject({ method: 'POST', url: '/sandbox/bills', payload: { from: 'demo-anon' } })).json().objectOID as string;
    expect(copy).toMatch(/^demo-anon-[0-9a-f]{12}$/);
    // Demo_Bill-1 fits the pattern but names no bill: the checkout with its data error, answered 404.
    for (const [id, status] of [['demo-anon', 200], [copy, 200], ['Demo_Bill-1', 404]] as const) {
      const page = await server.app.inject({ method: 'GET', url: `/pay/${id}` });
      expect(page.statusCode).toBe(status);
      const config = /<meta name=(?:"config"|config) content="([^"]*)"/.exec(page.body)![1]!;
      expect(JSON.parse(config.replaceAll('&quot;', '"')).billLink).toBe(id);
    }
  });

  test("the page's poll interval goes into its config only when set (the journeys' servers); else the page keeps its own", async () => {
    const configOf = async (app: TestServer['app']) => {
      const page = await app.inject({ method: 'GET', url: '/pay/demo-anon' });
      return JSON.parse(/<meta name=(?:"config"|config) content="([^"]*)"/.exec(page.body)![1]!.replaceAll('&quot;', '"')) as { pollMs: unknown };
    };
    expect((await configOf(server.app)).pollMs).toBeNull();
    const quick = await startServer({ pagePollMs: 250 });
    try {
      expect((await configOf(quick.app)).pollMs).toBe(250);
    } finally {
      await quick.close();
    }
  });

  test('an unknown bill with a good id gets the checkout (it shows the data error), answered 404, but, without a cookie, no session', async () => {
    const before = await sessionCount();
    const page = await server.app.inject({ method: 'GET', url: '/pay/no-such-bill' });
    expect(page.statusCode).toBe(404);
    // This test's build has no server rendering: the page's script renders the data error from the answer it carries.
    expect(page.body).toContain('<div id="root"></div>');
    expect(initialDataOf(page.body)).toEqual({ bill: { status: 404, body: { success: false, error: 'Документ не найден' } }, user: null, rendered: null });
    expect(page.cookies).toHaveLength(0);
    expect(await sessionCount()).toBe(before);
    // A payer who has a session keeps it on such a page.
    const client = await openPage(server.app);
    const again = await client.get('/pay/no-such-bill');
    expect(again.body).toContain(`content="${client.csrf}"`);
    // A known bill starts a session as before.
    await server.app.inject({ method: 'GET', url: '/pay/demo-anon' });
    expect(await sessionCount()).toBe(before + 2);
  });

  test('the API routes refuse an id outside the pattern with 400', async () => {
    const client = await openPage(server.app);
    expect((await client.get('/ajax/object-info/demo-anon.ALL')).statusCode).toBe(400);
    expect((await client.get(`/ajax/object-info/${'a'.repeat(65)}`)).statusCode).toBe(400);
    const pay = { pointsSum: null, cardTypeOID: 'demo-anon.ALL', email: 'payer@example.ru', userOID: null, manager_id: null };
    expect((await client.post('/api/getPaymentUrl/', { ...pay, objectOID: 'y$&z' })).statusCode).toBe(400);
    expect((await client.post('/api/getPaymentUrl/', { ...pay, objectOID: 'demo-anon', cardTypeOID: 'demo-anon.<b>' })).statusCode).toBe(400);
    expect((await client.post('/api/getResult/', { transactionID: 'x', billOID: 'a b' })).statusCode).toBe(400);
    expect((await client.post('/api/offerText/', { type: 'aggregator', objectOID: 'demo-offer', cardTypeOID: 'x"y' })).statusCode).toBe(400);
    expect((await server.app.inject({ method: 'POST', url: '/sandbox/bills', payload: { from: 'demo-anon.ALL' } })).statusCode).toBe(400);
    expect((await server.app.inject({ method: 'GET', url: '/sandbox/sbp/%3Cb%3E' })).statusCode).toBe(400);
  });
});

describe('the HTML renderers cannot read a value as markup or as a pattern', () => {
  const template = '<meta name=csrf-token content=__CSRF_TOKEN__><meta name="config" content="__CONFIG__"><title>__TITLE__</title>__MOUNT__';

  test('fillTemplate escapes text and attributes, quotes attributes, and never expands $ patterns or slots in values', () => {
    const filled = fillTemplate(template, {
      CSRF_TOKEN: { attribute: "$` $& $' $$ \" x" },
      CONFIG: { attribute: '{"a":"__TITLE__ <b>"}' },
      TITLE: { text: '$&<title>__MOUNT__' },
      MOUNT: html`<div id="root"></div>`,
    });
    expect(filled).toBe(
      '<meta name=csrf-token content="$` $&amp; $&#39; $$ &quot; x">' +
        '<meta name="config" content="{&quot;a&quot;:&quot;__TITLE__ &lt;b&gt;&quot;}">' +
        '<title>$&amp;&lt;title&gt;__MOUNT__</title><div id="root"></div>',
    );
  });

  test('html escapes every interpolated value; only Html made by html passes as markup', () => {
    const name = '<img src=x onerror=alert(1)>';
    expect(html`<p title="${name}">${name}</p>`.markup).toBe('<p title="&lt;img src=x onerror=alert(1)&gt;">&lt;img src=x onerror=alert(1)&gt;</p>');
    expect(html`<ul>${['a&b', html`<li>ok</li>`]}</ul>${null}${false}${undefined}${0}`.markup).toBe('<ul>a&amp;b<li>ok</li></ul>0');
    // A string that looks like markup is still a string.
    expect(html`${'<b>' as string}`.markup).toBe('&lt;b&gt;');
    expect(sandboxPage('$& <t>', html`<h1>x</h1>`)).toContain('<title>$&amp; &lt;t&gt;</title>');
  });

  test('bill and payment-type texts are escaped on every page that shows them', async () => {
    const evil = `<img src=x onerror=alert(1)> $& $' "`;
    const { created_at: _created, paid_order_id: _paid, ...offer } = (await billByOid(server.app.store, 'demo-offer'))!;
    await server.app.store.transaction(async (tx) => {
      await insertBill(tx, { ...offer, oid: 'evil-bill', link_id: 'evil-bill', purpose: evil, status: 'open', copied_from: null });
      await insertType(tx, { oid: 'evil-bill.ALL', bill_oid: 'evil-bill', position: 0, code: 'ALL', name: evil, commission_kopecks: 100, show_aggregator_offer: 1, show_executer_offer: 1 });
    });
    const client = await openPage(server.app, 'evil-bill');
    for (const type of ['aggregator', 'executer']) {
      const offer = (await client.post('/api/offerText/', { type, objectOID: 'evil-bill', cardTypeOID: 'evil-bill.ALL' })).json().OfferDescription as string;
      expect(offer).not.toContain('<img');
      expect(offer).toContain('&lt;img src=x onerror=alert(1)&gt; $&amp; $&#39; &quot;');
    }
    const { formUrl } = (await client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: 'evil-bill', cardTypeOID: 'evil-bill.ALL', email: 'payer@example.ru', userOID: null, manager_id: null })).json().info;
    const form = await server.app.inject({
      method: 'POST',
      url: new URL(formUrl).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ card: '"><script>alert(1)</script>$&', expiry: "$'", cvc: '1' }).toString(),
    });
    expect(form.statusCode).toBe(400);
    expect(form.body).not.toContain('<script>alert');
    expect(form.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;$&amp;"');
    expect(form.body).toContain('value="$&#39;"');
  });
});
