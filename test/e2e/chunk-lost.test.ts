import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { freshBill, payByCardFromChoose, useLiveServer, usePages } from './harness';
import { TEST_CARDS } from '../../server/sandbox/acquirer';

/**
 * A step's code lost on the way, in Chromium against the real server: the way to pay's chunk (its view and its
 * children, `paying.<hash>.js`) cannot be had, even after its one retry; the page says so where the step would be,
 * with a retry. The connection back, the retry brings the step, and paying works as ever.
 */

jest.setTimeout(90_000);

const live = useLiveServer();
const openPage = usePages(live);

test("the way to pay's chunk lost: 'Не удалось загрузить страницу', and 'Попробовать снова' once it can come brings the step", async () => {
  const { page } = await openPage();
  let lost = true;
  const requested: string[] = [];
  await page.route(/\/assets\/paying\.[^/]+\.js$/, (route) => {
    requested.push(new URL(route.request().url()).pathname);
    return lost ? route.abort('internetdisconnected') : route.continue();
  });

  await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-anon')}`);
  await page.locator('#root[data-shown]').waitFor();
  await page.getByLabel(messages.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: messages.app.continue }).click();

  // Tried, and tried again 1.5 s later: then the step's place says what happened, with a way on.
  const alert = page.getByRole('alert');
  await alert.getByText(messages.app.codeFailed).waitFor();
  expect(requested.length).toBeGreaterThanOrEqual(2);
  await page.getByRole('button', { name: messages.app.back }).waitFor();
  expect(await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).count()).toBe(0);

  lost = false;
  await page.getByRole('button', { name: messages.app.retry }).click();
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  expect(await page.getByText(messages.app.codeFailed).count()).toBe(0);
  expect(new URL(page.url()).hash).toBe('#/choosePaymentType');

  // The step's children came with it: paying by card goes to the acquirer's form and back with the result.
  await payByCardFromChoose(page, TEST_CARDS.pays);
  await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 20_000 });
});
