import type { Page } from 'playwright-core';
import type { AnyMachineSnapshot } from 'xstate';
import type { ModelPath } from '../model/support/paths';
import { describeSight, sightsOf, type Sight, type Text } from '../model/support/sights';
import { messages } from '../../src/services/messages';
import { rewriteMessage } from './errorMessage';

const m = messages;

/** The playwright adapter of the model states' sights (test/model/support/sights.ts), the jsdom run's twin. */
const exact = (text: Text) => (typeof text === 'string' ? { exact: true } : {});

/** Polls a condition about the page until it holds (the page settles in real time here). */
async function until(what: string, check: () => Promise<boolean>, timeout = 15_000) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const none = (locator: { count(): Promise<number> }) => async () => (await locator.count()) === 0;

export async function checkSight(page: Page, sight: Sight): Promise<void> {
  const visible = (locator: ReturnType<Page['locator']>) => locator.first().waitFor({ state: 'visible', timeout: 15_000 });
  if ('heading' in sight) return visible(page.getByRole('heading', { name: sight.heading, ...exact(sight.heading) }));
  if ('text' in sight) return visible(page.getByText(sight.text, exact(sight.text)));
  if ('noText' in sight) return until('no text', none(page.getByText(sight.noText, exact(sight.noText))));
  if ('alert' in sight) return visible(page.getByRole('alert').filter({ hasText: sight.alert }));
  if ('noAlert' in sight) return until('no alert', none(page.getByRole('alert').filter({ hasText: sight.noAlert })));
  if ('status' in sight) return visible(page.getByRole('status').filter({ hasText: sight.status }));
  if ('button' in sight) {
    const button = page.getByRole('button', { name: sight.button, ...exact(sight.button) });
    return until('the button is enabled', () => button.first().isEnabled());
  }
  if ('disabledButton' in sight) {
    const button = page.getByRole('button', { name: sight.disabledButton, ...exact(sight.disabledButton) });
    return until('the button is disabled', () => button.first().isDisabled());
  }
  if ('noButton' in sight) return until('no button', none(page.getByRole('button', { name: sight.noButton, ...exact(sight.noButton) })));
  if ('link' in sight) return visible(page.getByRole('link', { name: sight.link, ...exact(sight.link) }));
  if ('noLink' in sight) return until('no link', none(page.getByRole('link', { name: sight.noLink, ...exact(sight.noLink) })));
  if ('field' in sight) return visible(page.getByLabel(sight.field, exact(sight.field)));
  if ('noField' in sight) return until('no field', none(page.getByLabel(sight.noField, exact(sight.noField))));
  if ('checked' in sight) return until('checked', () => page.getByRole('checkbox', { name: sight.checked, ...exact(sight.checked) }).isChecked());
  if ('unchecked' in sight) return until('unchecked', async () => !(await page.getByRole('checkbox', { name: sight.unchecked, ...exact(sight.unchecked) }).isChecked()));
  if ('dialog' in sight) return visible(page.getByRole('dialog', { name: sight.dialog, ...exact(sight.dialog) }));
  if ('noDialog' in sight) return until('no dialog', none(page.getByRole('dialog')));
  if ('back' in sight) {
    const back = page.getByRole('button', { name: m.app.back, exact: true });
    return until(`'${m.app.back}' ${sight.back ? 'shows' : 'is hidden'}`, async () => (await back.count()) > 0 === sight.back);
  }
  if ('navigatedTo' in sight) {
    const pattern = sight.navigatedTo;
    return until(`the browser is at ${pattern}`, async () => pattern.test(page.url()), 20_000);
  }
  if ('reloaded' in sight) {
    return until('the page reloaded', () => page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type === 'reload'), 20_000);
  }
  throw new Error(`no playwright check for ${describeSight(sight)}`);
}

async function checkState(page: Page, snapshot: AnyMachineSnapshot) {
  for (const sight of sightsOf(snapshot)) {
    await checkSight(page, sight).catch((error: unknown) => {
      throw withContext(error, `the payer should see ${describeSight(sight)}`);
    });
  }
}

/** The error with `context` before its message (Playwright's errors too, which come from another realm). */
function withContext(error: unknown, context: string): unknown {
  return rewriteMessage(error, (message) => `${context}\n${message}`) ? error : new Error(`${context}\n${String(error)}`);
}

/** A path's event as the browser run performs it against the real server. */
export type BrowserEvent = (page: Page) => Promise<void>;

/** Walks a generated model path in Chromium: check the screen, perform the event, check the next screen… */
export async function walkInBrowser(path: ModelPath, page: Page, events: Record<string, BrowserEvent>) {
  let at = '(start)';
  let snapshot = path.start;
  try {
    await checkState(page, snapshot);
    for (const step of path.steps) {
      at = step.event.type;
      const perform = events[at];
      if (!perform) throw new Error(`no way to perform model event ${at} in the browser`);
      await perform(page);
      snapshot = step.state;
      await checkState(page, snapshot);
    }
  } catch (error) {
    throw withContext(error, `model path ${path.name}\nat ${at}, model state ${JSON.stringify(snapshot.value)}:`);
  }
}
