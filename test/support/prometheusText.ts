/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), written from the format's definition rather
 * than taken from the library that writes it, so a test reading the server's metrics with it checks what a Prometheus
 * server would accept: HELP and TYPE before a family's samples and once each, names and labels of the allowed
 * characters, quoted and escaped label values, numeric values, no sample twice, a histogram's buckets cumulative and
 * ending at +Inf with its count. Any line that does not fit throws, naming its number.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string | null;
  type: MetricType;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: readonly MetricType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];

/** A sample's value as Prometheus reads it (Go's ParseFloat: Inf, Infinity and NaN in any case, with a sign). */
function numberOf(text: string, where: string): number {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special) return special[2]!.toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`${where}: "${text}" is not a number`);
  return Number(text);
}

/** The labels of `{a="1",b="x\"y"}` starting at `text[0] === '{'`; answers them and the rest of the line. */
function labelsOf(text: string, where: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (text[i] === '}') return { labels, rest: text.slice(i + 1) };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`${where}: a label without '='`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`${where}: bad label name "${name}"`);
    if (name in labels) throw new Error(`${where}: label "${name}" twice`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: the value of "${name}" is not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] !== '\\') {
        value += text[j];
        continue;
      }
      const escaped = text[++j];
      if (escaped === 'n') value += '\n';
      else if (escaped === '\\' || escaped === '"') value += escaped;
      else throw new Error(`${where}: bad escape \\${escaped} in "${name}"`);
    }
    if (j >= text.length) throw new Error(`${where}: the value of "${name}" never ends`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i += 1;
    else if (text[i] !== '}') throw new Error(`${where}: expected ',' or '}' after "${name}"`);
  }
}

/** The family a sample of this name belongs to, by the suffixes its type allows. */
function familyOf(families: Map<string, Family>, name: string): Family | undefined {
  const exact = families.get(name);
  if (exact) return exact;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const family = families.get(name.slice(0, -suffix.length));
    if (family?.type === 'histogram' || (family?.type === 'summary' && suffix !== '_bucket')) return family;
  }
  return undefined;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number }>();
  const keyOf = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).filter(([name]) => name !== 'le').sort());
  for (const sample of family.samples) {
    const entry = series.get(keyOf(sample.labels)) ?? { buckets: [] };
    series.set(keyOf(sample.labels), entry);
    if (sample.name.endsWith('_bucket')) {
      if (sample.labels.le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([numberOf(sample.labels.le, family.name), sample.value]);
    } else if (sample.name.endsWith('_count')) entry.count = sample.value;
  }
  for (const [key, { buckets, count }] of series) {
    const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
    if (sorted.at(-1)?.[0] !== Infinity) throw new Error(`${family.name} ${key}: no +Inf bucket`);
    sorted.forEach(([, value], i) => {
      if (i > 0 && value < sorted[i - 1]![1]) throw new Error(`${family.name} ${key}: buckets are not cumulative`);
    });
    if (count !== sorted.at(-1)![1]) throw new Error(`${family.name} ${key}: _count ${count} is not the +Inf bucket ${sorted.at(-1)![1]}`);
  }
}

/** Reads a whole exposition; every family by its name. */
export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a line feed');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, index) => {
    const where = `line ${index + 1} (${line})`;
    if (line === '') return;
    const comment = /^#\s*(HELP|TYPE)\s+(\S+)\s?(.*)$/.exec(line);
    if (comment) {
      const [, kind, name, rest] = comment as unknown as [string, 'HELP' | 'TYPE', string, string];
      if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name "${name}"`);
      const family = families.get(name) ?? { name, help: null, type: 'untyped' as MetricType, samples: [] };
      if (family.samples.length > 0) throw new Error(`${where}: ${kind} of ${name} after its samples`);
      if (kind === 'HELP') {
        if (family.help !== null) throw new Error(`${where}: HELP of ${name} twice`);
        family.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      } else {
        if (!TYPES.includes(rest as MetricType)) throw new Error(`${where}: unknown type "${rest}"`);
        if (families.has(name) && families.get(name)!.type !== 'untyped') throw new Error(`${where}: TYPE of ${name} twice`);
        family.type = rest as MetricType;
      }
      families.set(name, family);
      return;
    }
    if (line.startsWith('#')) return;
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
    if (!name) throw new Error(`${where}: no metric name in "${line}"`);
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) ({ labels, rest } = labelsOf(rest, where));
    const parts = rest.trim().split(/\s+/);
    if (!rest.startsWith(' ') || parts.length < 1 || parts.length > 2) throw new Error(`${where}: expected " value [timestamp]" in "${line}"`);
    const value = numberOf(parts[0]!, where);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`${where}: bad timestamp "${parts[1]}"`);
    const family = familyOf(families, name) ?? { name, help: null, type: 'untyped' as MetricType, samples: [] };
    families.set(family.name, family);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`${where}: the sample ${name} ${JSON.stringify(labels)} twice`);
    seen.add(key);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** The value of the one sample of `name` whose labels include `labels` (undefined: none). */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = familyOf(families, name);
  const matching = (family?.samples ?? []).filter(
    (sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
  if (matching.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${matching.length} samples`);
  return matching[0]?.value;
}
