import { describeScreensOn } from './a11y';

/** Accessibility at 375 px (and nothing wider than a 320 px phone): axe on every screen. */
describe('mobile', () => describeScreensOn('mobile'));
