/** A payer's tab over real HTTP (child-process servers): the session cookie and the CSRF token from the page's meta tag. */
export interface Tab {
  base: string;
  headers: Record<string, string>;
  post(url: string, body: unknown): Promise<Response>;
  /** The same tab (cookie and token) talking to another server process of the same database. */
  on(base: string): Tab;
}

function tab(base: string, headers: Record<string, string>): Tab {
  return {
    base,
    headers,
    post: (url, body) => fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) }),
    on: (other) => tab(other, headers),
  };
}

export async function openTab(base: string, objectOID = 'demo-anon'): Promise<Tab> {
  const page = await fetch(`${base}/pay/${objectOID}`);
  const cookie = page.headers.get('set-cookie')?.split(';')[0];
  const csrf = /<meta name="?csrf-token"? content="([^"]+)"/.exec(await page.text())?.[1];
  if (!cookie || !csrf) throw new Error(`/pay/${objectOID} gave no session (${page.status})`);
  return tab(base, { cookie, 'x-csrf-token': csrf, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' });
}

export async function freshBill(base: string, from = 'demo-anon'): Promise<string> {
  const answer = await fetch(`${base}/sandbox/bills`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from }) });
  if (answer.status !== 201) throw new Error(`POST /sandbox/bills answered ${answer.status}`);
  return ((await answer.json()) as { objectOID: string }).objectOID;
}

export const payBody = (objectOID: string, code = 'ALL', pointsSum: number | null = null) => ({
  pointsSum,
  objectOID,
  cardTypeOID: `${objectOID}.${code}`,
  email: 'payer@example.ru',
  userOID: null,
  manager_id: null,
});

/** Starts a card payment for a bill and answers its order id (the attempt stays pending). */
export async function startCardPayment(tab: Tab, objectOID: string, pointsSum: number | null = null): Promise<string> {
  const answer = await tab.post('/api/getPaymentUrl/', payBody(objectOID, 'ALL', pointsSum));
  const json = (await answer.json()) as { success: boolean; info?: { orderId: string } };
  if (answer.status !== 200 || !json.info) throw new Error(`getPaymentUrl answered ${answer.status}: ${JSON.stringify(json)}`);
  return json.info.orderId;
}

/** The sandbox acquirer's card form, submitted with a test card: the acquirer's confirmation. */
export const confirmByCard = (base: string, orderId: string, card = '4111111111111111') =>
  fetch(`${base}/sandbox/acquirer/${orderId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card, expiry: '12/30', cvc: '123' }).toString(),
    redirect: 'manual',
  });

/** What the result page's poll answers. */
export async function pollStatus(tab: Tab, orderId: string, billOID: string): Promise<{ success: boolean; status?: string | null; objectOID?: string }> {
  const answer = await tab.post('/api/getResult/', { transactionID: orderId, billOID });
  return (await answer.json()) as { success: boolean; status?: string | null; objectOID?: string };
}
