import { freshBill, newContext, payWithPointsAndCard, useLiveServer, WIDTHS } from './harness';
import { violationsOf } from './a11y';
import { receiptMessages as r } from '../../src/services/receiptMessages';
import { attemptNamed } from '../../server/payments/queries';
import { orderNumberOf } from '../../server/payments/start';
import { rbsOrder } from '../../server/sandbox/rbsOrders';
import type { OrderBundle } from '../../server/acquirer/orderBundle';

/**
 * The fiscal receipt in Chromium against the real server: a bill with two positions (demo-points: a car's service and
 * its oil), paid by card with its fee and some points. The sandbox acquirer's order holds a bundle whose positions add
 * up to the amount charged, and the result page lists the positions, the fee and the points, at 375 and 1280 px.
 */

// Cold Chromium on 2 shared cores: the points code, the card form and the result page.
jest.setTimeout(90_000);

const live = useLiveServer();

for (const [device, options] of WIDTHS) {
  test(`two positions, a fee and points by card (${device} px): the acquirer's bundle adds up to the amount; the receipt lists the positions`, async () => {
    const context = await newContext(live.browser, options);
    const page = await context.newPage();
    const bill = await freshBill(live.server, 'demo-points');
    await payWithPointsAndCard(page, live.server, bill, 1234);

    const attempt = (await attemptNamed(live.server.app.store, new URL(page.url()).searchParams.get('orderId')!))!;
    // 8 000.00 + the card's 120.00 fee − 1 234 points.
    expect(attempt.amount_kopecks).toBe(800_000 + 12_000 - 123_400);
    const order = (await rbsOrder(live.server.app.store, { orderNumber: orderNumberOf(attempt.order_id) }))!;
    const bundle = JSON.parse(order.order_bundle!) as OrderBundle;
    expect(bundle.cartItems.items.map((item) => item.name)).toEqual(['Техническое обслуживание ТО-2', 'Масло моторное 5W-30', 'Сервисный сбор']);
    expect(bundle.cartItems.items.reduce((sum, item) => sum + item.itemAmount, 0)).toBe(order.amount);
    expect(order.amount).toBe(attempt.amount_kopecks);

    const receipt = page.getByRole('region', { name: r.receiptTitle });
    const lines = receipt.getByRole('list', { name: r.positions }).getByRole('listitem');
    expect(await lines.allTextContents()).toEqual([
      expect.stringMatching(/^Техническое обслуживание ТО-21 × 6\s500,00 руб\. · НДС 22\/1226\s500,00 руб\.$/),
      expect.stringMatching(/^Масло моторное 5W-301,5 × 1\s000,00 руб\. · НДС 22\/1221\s500,00 руб\.$/),
      expect.stringMatching(/^Сервисный сбор120,00 руб\.$/),
      expect.stringMatching(/^Оплачено баллами−1\s234,00 руб\.$/),
    ]);
    await receipt.getByText(r.fiscalNote).waitFor();
    await receipt.getByText('pa***@example.com').waitFor();
    expect(await violationsOf(page)).toEqual([]);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await context.close();
  });
}
