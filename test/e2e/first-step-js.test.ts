import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PAGE_BUDGETS } from '../../bench/report';
import { auditActionNames, deskMessages, measureNames, roleNames } from '../../src/desk/services/messages';
import { bankListMessages } from '../../src/services/bankListMessages';
import { messages } from '../../src/services/messages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import { distDir } from './harness';

/*
 * The first step's JS must not grow, so the later steps come on demand. The built page's own script tags are what a
 * payer loads before the first step; every later step's view imports its copy from the on-demand catalogues, so a
 * later step imported eagerly (or its copy put back in messages.ts) brings that copy into these scripts. Their weight
 * is held to the budget here, on the build; `npm run bench` measures it in a browser too, with any chunk fetched before
 * the first step is interactive.
 */

/** Every plain text of a catalogue (the functions' texts are built at run time, so they are not in the bundle as such). */
const textsOf = (node: unknown): string[] =>
  typeof node === 'string' ? [node] : node && typeof node === 'object' ? Object.values(node).flatMap(textsOf) : [];

const firstTexts = textsOf(messages);
/** A later step's text that no first-step text contains ('Обновить страницу' is the result's and the error boundary's). */
const laterTexts = textsOf({ stepMessages, receiptMessages, bankListMessages }).filter((text) => !firstTexts.some((first) => first.includes(text)));

/**
 * The scripts the built page's HTML loads before anything else: those it preloads and the boot script that runs them
 * (terser keeps the copy's UTF-8 as it is).
 */
function entryScripts(): { name: string; code: string }[] {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  // Attribute quotes are optional in the built HTML (bench/page.ts reads it the same way).
  return [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)=["']?\/assets\/([^"'\s>]+\.js)/g)].map(([, name]) => ({
    name: name!,
    code: fs.readFileSync(path.join(distDir, name!), 'utf8'),
  }));
}

test('the first step carries its own copy, and no text of a later step, the payment end or the bank list', () => {
  const scripts = entryScripts();
  expect(scripts.map((script) => script.name)).toEqual([expect.stringMatching(/^main\./), expect.stringMatching(/^boot\./)]);
  const code = scripts.map((script) => script.code).join('\n');
  // The check can see copy at all: the first step's own texts are there.
  expect(code).toContain(messages.app.continue);
  expect(code).toContain(messages.email.label);
  expect(laterTexts.length).toBeGreaterThan(50);
  expect(laterTexts.filter((text) => code.includes(text))).toEqual([]);
});

test("the later steps' copy is built, in chunks of their own", () => {
  const entries = new Set(entryScripts().map((script) => script.name));
  const chunks = fs
    .readdirSync(distDir)
    .filter((name) => name.endsWith('.js') && !entries.has(name))
    .map((name) => fs.readFileSync(path.join(distDir, name), 'utf8'))
    .join('\n');
  expect(chunks).toContain(stepMessages.choosePaymentType.title);
  expect(chunks).toContain(stepMessages.usePoints.input);
  expect(chunks).toContain(stepMessages.validation.emailRequired);
  expect(chunks).toContain(receiptMessages.paidTitle);
});

test('the first scripts weigh no more than their budget, gzipped as the bench does (level 9)', () => {
  const gzipBytes = entryScripts().reduce((sum, script) => sum + zlib.gzipSync(fs.readFileSync(path.join(distDir, script.name)), { level: 9 }).length, 0);
  // Some code at all: the check would pass on an empty build otherwise.
  expect(gzipBytes).toBeGreaterThan(10_000);
  expect(gzipBytes).toBeLessThanOrEqual(PAGE_BUDGETS.initialJsGzipBytes);
});

/**
 * The merchant's desk is a build of its own (dist/desk/): none of its copy is in any script of the payer's page, first
 * or later, so a payer never downloads the staff's page. A desk text that a payer's catalogue also has says nothing.
 */
test("no script of the payer's page carries the desk's copy", () => {
  const payerTexts = textsOf({ messages, stepMessages, receiptMessages, bankListMessages });
  // The payer's own source, outside its catalogues too (a line built in a view): a desk text it also says says nothing.
  const payerSource = fs
    .readdirSync(path.join(__dirname, '../../src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.startsWith('desk'))
    .map((name) => fs.readFileSync(path.join(__dirname, '../../src', name), 'utf8'))
    .join('\n');
  const deskTexts = textsOf({ deskMessages, auditActionNames, roleNames, measureNames }).filter(
    (text) => text.length >= 8 && !payerTexts.some((payer) => payer.includes(text)) && !payerSource.includes(text),
  );
  const scriptsIn = (dir: string) =>
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.js'))
      .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
      .join('\n');
  const payer = scriptsIn(distDir);
  const desk = scriptsIn(path.join(distDir, 'desk'));
  // The check can see the desk's copy: its own build has every one of these texts.
  expect(deskTexts.length).toBeGreaterThan(100);
  expect(deskTexts.filter((text) => !desk.includes(text))).toEqual([]);
  expect(deskTexts.filter((text) => payer.includes(text))).toEqual([]);
});
