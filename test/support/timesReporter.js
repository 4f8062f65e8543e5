// @ts-check
/**
 * A jest reporter the suite always uses: after every run it prints each project's total (the sum of its files' wall
 * times and the span from its first file's start to its last file's end) and the ten slowest files, and keeps every
 * file's time in .tmp/test-times.json for `npm run test:times` (scripts/testTimes.js), which prints them all, sorted.
 */
const fs = require('node:fs');
const path = require('node:path');
const { summarise, formatSummary } = require('../../scripts/testTimes');

class TimesReporter {
  /** @param {import('@jest/reporters').Config.GlobalConfig} globalConfig */
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  /**
   * @param {unknown} _contexts
   * @param {import('@jest/reporters').AggregatedResult} results
   */
  onRunComplete(_contexts, results) {
    const files = results.testResults
      .filter((result) => !result.skipped && result.perfStats.end > 0)
      .map((result) => ({
        project: result.displayName?.name ?? '(no project)',
        file: path.relative(this.rootDir, result.testFilePath),
        start: result.perfStats.start,
        end: result.perfStats.end,
        tests: result.numPassingTests + result.numFailingTests,
        failed: result.numFailingTests > 0 || Boolean(result.testExecError),
      }));
    if (files.length === 0) return;
    const run = { startedAt: results.startTime, endedAt: Date.now(), files };
    const out = path.join(this.rootDir, '.tmp', 'test-times.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(run, null, 1)}\n`);
    process.stderr.write(`\n${formatSummary(summarise(run), 10)}\n(every file: npm run test:times)\n`);
  }
}

module.exports = TimesReporter;
