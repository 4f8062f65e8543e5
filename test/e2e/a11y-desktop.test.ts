import { describeScreensOn, payByKeyboardAlone } from './a11y';
import { useLiveServer } from './harness';

/** Accessibility at 1280 px: axe on every screen, and a card payment by keyboard alone. */
describe('desktop', () => describeScreensOn('desktop'));

describe('keyboard', () => {
  const live = useLiveServer();
  test('keyboard alone: demo-anon pays by card with Tab, Shift+Tab, arrows, Space and Enter', () => payByKeyboardAlone(live.browser, live.server));
});
