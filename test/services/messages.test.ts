import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { receiptMessages } from '../../src/services/receiptMessages';

/** Every text of the catalogue, the functions' with sample arguments, by its key path. */
function textsOf(node: unknown, path: string[] = []): [string, string][] {
  if (typeof node === 'string') return [[path.join('.'), node]];
  // Every parameter gets the sample, so a text of two values (quantity × price) shows both.
  if (typeof node === 'function') return [[path.join('.'), String((node as (...args: never[]) => unknown)(...(Array(node.length).fill(5) as never[])))]];
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([key, value]) => textsOf(value, [...path, key]));
  return [];
}

/** The Latin words a Russian payment page keeps: names of things and the e-mail's own word. */
const KEPT_LATIN = /\b(Email|email|ID|QR|SberPay|3-D Secure|JavaScript)\b/g;

test('the page is Russian throughout: no English text is left in the catalogue', () => {
  // The catalogue's on-demand parts too: the steps after the first, and the payment's end.
  const english = textsOf({ messages, stepMessages, receiptMessages }).filter(([, text]) => /[A-Za-z]{2,}/.test(text.replace(KEPT_LATIN, '')));
  expect(english).toEqual([]);
});
