// @ts-check
/**
 * The order the suite's files start in: jest's own, but for the files jest has no time for. Jest starts the files it
 * timed in an earlier run longest first, which leaves no worker idle at the end; a file it has not timed it places by
 * its size, as a guess at its length. On a fresh machine (CI's) it has timed none, and the longest files of all, the
 * accessibility walks, are among the smallest (a few lines that call test/e2e/a11y.ts): they started last. So the
 * journeys jest has not timed start before its other untimed files, the largest first within each. A clean-clone run's
 * file times laid out on two workers end at 807 s by size (the workers 30 s apart), at 795 s this way and at 792 s
 * longest first.
 */
const Sequencer = require('@jest/test-sequencer').default;

/** @typedef {import('@jest/test-result').Test} Test */

/** @param {Test} test */
const isJourney = (test) => test.path.includes('/test/e2e/');

class UntimedJourneysFirst extends Sequencer {
  /** @param {Array<Test>} tests */
  sort(tests) {
    const sorted = /** @type {Array<Test>} */ (super.sort(tests));
    /** @param {Test} test */
    const untimedJourney = (test) => test.duration == null && isJourney(test);
    return [...sorted.filter(untimedJourney), ...sorted.filter((test) => !untimedJourney(test))];
  }
}

module.exports = UntimedJourneysFirst;
