import type { AdaptiveRouting } from '@fabscope/contracts';

/**
 * opafm.xml's `<Common><Sm><AdaptiveRouting>` section, read and edited in place: text outside the
 * changed values is kept byte for byte (never re-serialized); the caller reads it as `latin1`.
 */

/** One element of the document, as offsets into its text. */
export interface XmlElement {
  name: string;
  /** Element names from the root down to this one, itself included. */
  path: readonly string[];
  /** Index of its `<`. */
  start: number;
  /** Just after its start tag's `>` (the start tag's end for a self-closing element). */
  contentStart: number;
  /** Index of its end tag's `<` (= contentStart when self-closing). */
  contentEnd: number;
  /** Just after its end tag's `>`. */
  end: number;
  selfClosing: boolean;
}

export class OpafmXmlError extends Error {
  override name = 'OpafmXmlError';
}

/** 1-based line of `index`. */
export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;

/** Every element of `text`, in document order. Comments, CDATA, PIs and DOCTYPE are skipped. */
export function scanElements(text: string): XmlElement[] {
  const elements: XmlElement[] = [];
  const open: XmlElement[] = [];
  const fail = (at: number, what: string): never => {
    throw new OpafmXmlError(`line ${lineOf(text, at)}: ${what}`);
  };
  const skipTo = (from: number, terminator: string, what: string) => {
    const at = text.indexOf(terminator, from);
    if (at === -1) fail(from, `unterminated ${what}`);
    return at + terminator.length;
  };
  let i = text.indexOf('<');
  while (i !== -1) {
    if (text.startsWith('<!--', i)) i = skipTo(i + 4, '-->', 'comment');
    else if (text.startsWith('<![CDATA[', i)) i = skipTo(i + 9, ']]>', 'CDATA section');
    else if (text.startsWith('<?', i)) i = skipTo(i + 2, '?>', 'processing instruction');
    else if (text.startsWith('<!', i)) i = skipTo(i + 2, '>', 'declaration');
    else if (text.startsWith('</', i)) {
      NAME.lastIndex = i + 2;
      const name = NAME.exec(text)?.[0] ?? fail(i, 'end tag without a name');
      const close = skipTo(i + 2 + name.length, '>', `end tag </${name}>`);
      const top = open.pop() ?? fail(i, `</${name}> closes nothing`);
      if (top.name !== name) fail(i, `</${name}> closes <${top.name}>`);
      top.contentEnd = i;
      top.end = close;
      i = close;
    } else {
      NAME.lastIndex = i + 1;
      const name = NAME.exec(text)?.[0] ?? fail(i, 'a "<" that starts no tag');
      let j = i + 1 + name.length;
      let quote = '';
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote !== '') {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (j >= text.length) fail(i, `unterminated start tag <${name}>`);
      const selfClosing = text[j - 1] === '/';
      const path = [...(open.at(-1)?.path ?? []), name];
      const element: XmlElement = {
        name,
        path,
        start: i,
        contentStart: j + 1,
        contentEnd: j + 1,
        end: j + 1,
        selfClosing,
      };
      elements.push(element);
      if (!selfClosing) open.push(element);
      i = j + 1;
    }
    i = text.indexOf('<', i);
  }
  const unclosed = open.at(-1);
  if (unclosed) fail(unclosed.start, `<${unclosed.name}> is never closed`);
  return elements;
}

type Key = keyof AdaptiveRouting;

/** The section's values as opafm.xml spells them, the defaults its comments give, and the ranges accepted. */
export const FIELDS: readonly { key: Key; tag: string; max: number; fallback: number }[] = [
  { key: 'enabled', tag: 'Enable', max: 1, fallback: 0 }, // 1 = Enable, 0 = Disable
  { key: 'lostRouteOnly', tag: 'LostRouteOnly', max: 1, fallback: 0 }, // only when routes are lost
  { key: 'algorithm', tag: 'Algorithm', max: 2, fallback: 2 }, // 0 Random, 1 Greedy, 2 GreedyRandom
  { key: 'arFrequency', tag: 'ARFrequency', max: 7, fallback: 0 }, // 2^n × 64 ms between adjustments
  { key: 'threshold', tag: 'Threshold', max: 7, fallback: 3 }, // 0 firmware default; 1..7 = 100..55 %
];

const COMMON_SECTION = 'Config/Common/Sm/AdaptiveRouting';
const INSTANCE_SECTION = 'Config/Fm/Sm/AdaptiveRouting';

/** The one section fabscope manages, and the elements of its five values. */
export interface Section {
  element: XmlElement;
  fields: Map<Key, XmlElement[]>;
}

/** Finds `<Common><Sm><AdaptiveRouting>`, or says why fabscope cannot manage it. */
export function locateSection(text: string): Section | { reason: string } {
  let elements: XmlElement[];
  try {
    elements = scanElements(text);
  } catch (error) {
    if (error instanceof OpafmXmlError)
      return { reason: `opafm.xml is not well-formed XML: ${error.message}` };
    throw error;
  }
  const joined = (e: XmlElement) => e.path.join('/');
  const instance = elements.find((e) => joined(e) === INSTANCE_SECTION);
  if (instance) {
    return {
      reason: `opafm.xml overrides <AdaptiveRouting> for one FM instance (<Fm><Sm>, line ${lineOf(text, instance.start)}): fabscope reads and edits only <Common><Sm><AdaptiveRouting>, so change it by hand`,
    };
  }
  const sections = elements.filter((e) => joined(e) === COMMON_SECTION);
  const [element] = sections;
  if (!element) {
    return { reason: 'opafm.xml has no <AdaptiveRouting> in <Common><Sm>: add one (as opa-fm’s sample has)' };
  }
  if (sections.length > 1) {
    return { reason: `opafm.xml has ${sections.length} <AdaptiveRouting> sections in <Common><Sm>` };
  }
  const fields = new Map<Key, XmlElement[]>();
  for (const field of FIELDS) {
    const path = `${COMMON_SECTION}/${field.tag}`;
    const found = elements.filter(
      (e) => e.start > element.start && e.end <= element.end && joined(e) === path,
    );
    if (found.length > 0) fields.set(field.key, found);
  }
  return { element, fields };
}

/** The settings the section holds (the last of repeated values, as a parser reading in order keeps). */
export function readSettings(text: string, section: Section): AdaptiveRouting | { reason: string } {
  const values: Partial<Record<Key, number>> = {};
  for (const field of FIELDS) {
    const element = section.fields.get(field.key)?.at(-1);
    if (!element) {
      values[field.key] = field.fallback;
      continue;
    }
    const raw = text.slice(element.contentStart, element.contentEnd).trim();
    const value = /^(0x[0-9a-f]+|[0-9]+)$/i.test(raw) ? Number(raw) : Number.NaN;
    if (!(value >= 0 && value <= field.max)) {
      return {
        reason: `opafm.xml <AdaptiveRouting><${field.tag}> at line ${lineOf(text, element.start)} is "${raw}", not 0..${field.max}`,
      };
    }
    values[field.key] = value;
  }
  return {
    enabled: values.enabled !== 0,
    lostRouteOnly: values.lostRouteOnly !== 0,
    algorithm: values.algorithm as AdaptiveRouting['algorithm'],
    arFrequency: values.arFrequency as number,
    threshold: values.threshold as number,
  };
}

function spelt(value: boolean | number): string {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

function lineStart(text: string, index: number): number {
  return text.lastIndexOf('\n', index - 1) + 1;
}

/** The whitespace `index`'s line starts with, when nothing but whitespace precedes `index` on it; else null. */
function indentBefore(text: string, index: number): string | null {
  const before = text.slice(lineStart(text, index), index);
  return /^[ \t]*$/.test(before) ? before : null;
}

/**
 * `text` with the section's values set to `patch`'s: present ones replaced between their tags,
 * absent ones added before `</AdaptiveRouting>` indented as its children. Nothing else changes.
 */
export function editSection(text: string, section: Section, patch: Partial<AdaptiveRouting>): string {
  const edits: { from: number; to: number; text: string }[] = [];
  const additions: string[] = [];
  const { element } = section;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const firstChild = FIELDS.flatMap((f) => section.fields.get(f.key) ?? []).sort(
    (a, b) => a.start - b.start,
  )[0];
  const closingIndent = indentBefore(text, element.contentEnd) ?? indentBefore(text, element.start) ?? '';
  const childIndent = (firstChild && indentBefore(text, firstChild.start)) ?? `${closingIndent}  `;
  for (const field of FIELDS) {
    const value = patch[field.key];
    if (value === undefined) continue;
    const v = spelt(value);
    const found = section.fields.get(field.key);
    if (!found) {
      additions.push(`<${field.tag}>${v}</${field.tag}>`);
      continue;
    }
    for (const e of found) {
      if (e.selfClosing) {
        edits.push({ from: e.start, to: e.end, text: `<${field.tag}>${v}</${field.tag}>` });
        continue;
      }
      const content = text.slice(e.contentStart, e.contentEnd);
      const lead = content.length - content.trimStart().length;
      const trail = content.length - content.trimEnd().length;
      const to = Math.max(e.contentStart + lead, e.contentEnd - trail);
      edits.push({ from: e.contentStart + lead, to, text: v });
    }
  }
  if (additions.length > 0) {
    if (element.selfClosing) {
      const lines = additions.map((a) => `${eol}${childIndent}${a}`).join('');
      edits.push({
        from: element.start,
        to: element.end,
        text: `<${element.name}>${lines}${eol}${closingIndent}</${element.name}>`,
      });
    } else if (indentBefore(text, element.contentEnd) !== null) {
      const at = lineStart(text, element.contentEnd);
      edits.push({ from: at, to: at, text: additions.map((a) => `${childIndent}${a}${eol}`).join('') });
    } else {
      edits.push({ from: element.contentEnd, to: element.contentEnd, text: additions.join('') });
    }
  }
  let edited = text;
  for (const edit of edits.sort((a, b) => b.from - a.from)) {
    edited = edited.slice(0, edit.from) + edit.text + edited.slice(edit.to);
  }
  return edited;
}

/** The lines the section spans (whole lines), and the first one's number. */
export function sectionLines(
  text: string,
  start: number,
  end: number,
): { firstLine: number; lines: string[] } {
  const from = lineStart(text, start);
  const newline = text.indexOf('\n', end);
  const to = newline === -1 ? text.length : newline;
  return { firstLine: lineOf(text, from), lines: text.slice(from, to).split(/\r?\n/) };
}
