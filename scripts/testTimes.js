#!/usr/bin/env node
// @ts-check
/**
 * The test suite's times: every file's wall time, slowest first, and each project's total, from the last jest run
 * (kept in .tmp/test-times.json by test/support/timesReporter.js). `npm run test:times` prints them all;
 * `npm run test:times -- --markdown 10` prints the ten slowest as the table docs/testing.md keeps;
 * `npm run test:times -- path/to/test-times.json` reads another run's.
 */
const fs = require('node:fs');
const path = require('node:path');

/**
 * @typedef {{ project: string, file: string, start: number, end: number, tests: number, failed: boolean }} FileTime
 * @typedef {{ startedAt: number, endedAt: number, files: FileTime[] }} Run
 * @typedef {{ project: string, files: number, tests: number, sum: number, span: number }} ProjectTotal
 */

/** @param {Run} run */
function summarise(run) {
  const files = [...run.files].sort((a, b) => b.end - b.start - (a.end - a.start));
  /** @type {Map<string, FileTime[]>} */
  const byProject = new Map();
  for (const file of run.files) byProject.set(file.project, [...(byProject.get(file.project) ?? []), file]);
  /** @type {ProjectTotal[]} */
  const projects = [...byProject].map(([project, own]) => ({
    project,
    files: own.length,
    tests: own.reduce((n, file) => n + file.tests, 0),
    sum: own.reduce((ms, file) => ms + file.end - file.start, 0),
    span: Math.max(...own.map((file) => file.end)) - Math.min(...own.map((file) => file.start)),
  }));
  projects.sort((a, b) => b.sum - a.sum);
  return { wall: run.endedAt - run.startedAt, projects, files };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const pad = (text, width) => String(text).padStart(width);

/**
 * The per-project totals and the `limit` slowest files (all with Infinity). "sum" is the files' wall times added up
 * (what the project costs the workers); "span" is from its first file's start to its last one's end.
 * @param {ReturnType<typeof summarise>} summary
 * @param {number} limit
 */
function formatSummary(summary, limit) {
  const width = Math.max(...summary.projects.map((p) => p.project.length), 'project'.length);
  const lines = [`Test times: the run took ${seconds(summary.wall)} (jest alone, without the build).`];
  lines.push(`  ${'project'.padEnd(width)}  ${pad('files', 5)}  ${pad('tests', 5)}  ${pad('sum of files', 12)}  ${pad('span', 9)}`);
  for (const p of summary.projects) {
    lines.push(`  ${p.project.padEnd(width)}  ${pad(p.files, 5)}  ${pad(p.tests, 5)}  ${pad(seconds(p.sum), 12)}  ${pad(seconds(p.span), 9)}`);
  }
  const total = summary.projects.reduce((ms, p) => ms + p.sum, 0);
  lines.push(`  ${'all'.padEnd(width)}  ${pad(summary.files.length, 5)}  ${pad(summary.projects.reduce((n, p) => n + p.tests, 0), 5)}  ${pad(seconds(total), 12)}`);
  const shown = summary.files.slice(0, limit);
  lines.push(limit === Infinity ? 'Every file, slowest first:' : `The ${shown.length} slowest files:`);
  for (const file of shown) {
    lines.push(`  ${pad(seconds(file.end - file.start), 9)}  ${file.project.padEnd(width)}  ${file.file}${file.failed ? '  (failed)' : ''}`);
  }
  return lines.join('\n');
}

/**
 * The `limit` slowest files as a Markdown table.
 * @param {ReturnType<typeof summarise>} summary
 * @param {number} limit
 */
function formatMarkdown(summary, limit) {
  const rows = summary.files.slice(0, limit).map((file, i) => `| ${i + 1} | \`${file.file}\` | ${file.project} | ${((file.end - file.start) / 1000).toFixed(1)} |`);
  return ['| # | file | project | wall time (s) |', '| ---: | --- | --- | ---: |', ...rows].join('\n');
}

module.exports = { summarise, formatSummary, formatMarkdown };

if (require.main === module) {
  const args = process.argv.slice(2);
  const markdown = args.indexOf('--markdown');
  const limit = markdown >= 0 ? Number(args[markdown + 1] ?? 10) : Infinity;
  const source = args.find((arg, i) => !arg.startsWith('--') && (markdown < 0 || i !== markdown + 1)) ?? path.join(__dirname, '..', '.tmp', 'test-times.json');
  if (!fs.existsSync(source)) {
    process.stderr.write(`No test times in ${source}: run jest first (every run records them).\n`);
    process.exit(1);
  }
  /** @type {Run} */
  const run = JSON.parse(fs.readFileSync(source, 'utf8'));
  const summary = summarise(run);
  process.stdout.write(`${markdown >= 0 ? formatMarkdown(summary, limit) : formatSummary(summary, limit)}\n`);
}
