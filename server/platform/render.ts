/**
 * Every piece of HTML the server writes goes through this module: `html` for markup written in code, `fillTemplate`
 * for the built page, `reactMarkup` for what React's server renderer wrote. None can read a value as markup or as a
 * replacement pattern (`$&`, `` $` ``, `$'` of String.replace with a string): values are escaped, and only `Html`
 * made here is inserted as it is.
 */

/** Escapes text for an HTML text node or a double-quoted attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Markup that is already safe: made only here (`html`, `reactMarkup`), so a plain string can never pass as one. */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

type Value = Html | string | number | null | undefined | false | readonly Value[];

const valueHtml = (value: Value): string => {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(valueHtml).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
};

/**
 * Markup React's server renderer wrote (src/serverRender.tsx): React escapes every value it writes, as `html` does, so
 * its output goes in as it is.
 */
export const reactMarkup = (markup: string): Html => new Html(markup);

/**
 * A template literal tag for markup: every interpolated value is escaped, except `Html` (a nested html`…`);
 * arrays are joined, null/undefined/false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += valueHtml(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** What fills a slot of the built page: text (escaped), an attribute value (escaped and quoted) or markup. */
export type Slot = { text: string } | { attribute: string } | Html;

/**
 * Fills the `__NAME__` slots of a template in one pass with a replacer function, so no value is read as a
 * replacement pattern and no value is searched for slots again. An attribute is quoted here whether or not the
 * minifier kept the template's quotes around the slot (the values contain spaces). Unknown slots stay as they are.
 */
export function fillTemplate(template: string, slots: Record<string, Slot>): string {
  return template.replace(/("?)__([A-Z][A-Z_]*?)__("?)/g, (match: string, open: string, name: string, close: string) => {
    const slot = Object.prototype.hasOwnProperty.call(slots, name) ? slots[name] : undefined;
    if (slot === undefined) return match;
    if (slot instanceof Html) return open + slot.markup + close;
    if ('attribute' in slot) return `"${escapeHtml(slot.attribute)}"`;
    return open + escapeHtml(slot.text) + close;
  });
}
