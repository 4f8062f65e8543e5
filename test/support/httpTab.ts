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

/** Switches a fault of the sandbox's RBS fake of a server process (for every order, or one orderNumber). */
export async function rbsFaultAt(base: string, fault: string, on = true, orderNumber?: string): Promise<void> {
  const answer = await fetch(`${base}/sandbox/rbs/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fault, on, ...(orderNumber ? { orderNumber } : {}) }),
  });
  if (answer.status !== 200) throw new Error(`fault switch refused: ${await answer.text()}`);
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

/**
 * The acquirer's order of one of our orders, asked of the sandbox's RBS fake as a merchant would (getOrderStatusExtended.do
 * by orderNumber, which is our order id): its orderId names its card form.
 */
export async function acquirerOrderOf(base: string, orderId: string): Promise<string> {
  const answer = await fetch(`${base}/sandbox/rbs/payment/rest/getOrderStatusExtended.do`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ userName: 'sandbox-shop', password: 'sandbox-password', orderNumber: orderId }).toString(),
  });
  const json = (await answer.json()) as { attributes?: { name: string; value: string }[] };
  const mdOrder = json.attributes?.find((a) => a.name === 'mdOrder')?.value;
  if (!mdOrder) throw new Error(`no acquirer order for ${orderId}: ${JSON.stringify(json)}`);
  return mdOrder;
}

/** The acquirer's (the sandbox's RBS fake's) card form of an order, submitted with a test card: the acquirer's confirmation. */
export const confirmByCard = async (base: string, orderId: string, card = '4111111111111111') =>
  fetch(`${base}/sandbox/acquirer/${await acquirerOrderOf(base, orderId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card, expiry: '12/30', cvc: '123' }).toString(),
    redirect: 'manual',
  });

/**
 * Polls as the result page does until the order is no longer pending (the product learns an outcome through the
 * acquirer's callback or, when that is lost, by asking the acquirer a few seconds later): answers the last answer.
 */
export async function settledStatus(tab: Tab, orderId: string, billOID: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await pollStatus(tab, orderId, billOID);
    if (answer.status !== 'created' || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What the result page's poll answers. */
export async function pollStatus(tab: Tab, orderId: string, billOID: string): Promise<{ success: boolean; status?: string | null; objectOID?: string }> {
  const answer = await tab.post('/api/getResult/', { transactionID: orderId, billOID });
  return (await answer.json()) as { success: boolean; status?: string | null; objectOID?: string };
}
