/**
 * Free text: what a person or a merchant's system types into a field (a bill's purpose, a name, an e-mail, a reason).
 * It may hold any character people write, but not those nobody writes, which only break what stores, sends or shows
 * the text: the C0 control characters (U+0000 to U+001F: PostgreSQL refuses NUL, the others forge lines in logs and
 * receipts), DEL, and half a character (a surrogate without its pair, which UTF-8 cannot encode and a database would
 * silently replace). A field that may hold lines keeps tab and line feed; any other field is one line, with no line
 * break of any kind (nor NEL, nor the Unicode line and paragraph separators).
 *
 * The server's JSON schemas name these rules as formats (`format: 'text-line'`), checked by the one function below;
 * the page's forms refuse the same characters before sending.
 */

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const notInLines = /[\u0000-\u0008\u000b-\u001f\u007f\ud800-\udfff]/u;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const notInLine = /[\u0000-\u001f\u007f\u0085\u2028\u2029\ud800-\udfff]/u;

/** One line of text: no control character, no line break. */
export const isTextLine = (text: string): boolean => !notInLine.test(text);

/** Text that may hold lines (tab and line feed allowed), and no other control character. */
export const isTextLines = (text: string): boolean => !notInLines.test(text);

/** The JSON-schema formats of free text, by name: a schema's string field says which it is. */
export const textFormats = {
  'text-line': isTextLine,
  'text-lines': isTextLines,
} as const;

export type TextFormat = keyof typeof textFormats;

/** A schema's format name, for a field of one line. */
export const TEXT_LINE = 'text-line' satisfies TextFormat;
/** A schema's format name, for a field that may hold lines. */
export const TEXT_LINES = 'text-lines' satisfies TextFormat;
