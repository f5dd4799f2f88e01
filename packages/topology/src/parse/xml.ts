import { excerpt, type ParseError, parseError } from './errors.ts';

/** An element of an XML file as readXml reads it: enough for the tools' reports, nothing more. */
export interface XmlElement {
  name: string;
  /** 1-based line of its `<`. */
  line: number;
  /** Its attributes by name, entities decoded as in text; undefined when it has none. */
  attributes: Map<string, string> | undefined;
  /** Its child elements in order; undefined when it has none. */
  children: XmlElement[] | undefined;
  /** Its own text (CDATA included), trimmed; the predefined and numeric entities decoded. */
  text: string;
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([A-Za-z_:][\w.:-]*));/iy;
const DOCTYPE_SUBSET_END = /\]\s*>/g;

/**
 * A well-formed XML document's root element, read in one forward pass (every step an `indexOf`
 * or a character test, so the time is linear in the text whatever it holds). Comments, processing
 * instructions and the DOCTYPE are skipped; entities other than the five predefined ones and
 * character references are left as written (`&name;`), never expanded. What is not well formed is
 * a ParseError naming the line: `malformed XML: …`, or, when the text ends with elements still
 * open, the innermost one, the line where it opened and the line where the text ends.
 */
export function readXml(
  text: string,
  format: string,
  /**
   * Called as each element closes, with its open ancestors (the root first); when it returns true
   * the element was used up and is not kept as its parent's child, so a reader of a large file can
   * take its records as they end instead of holding the whole tree.
   */
  onClose?: (element: XmlElement, ancestors: readonly XmlElement[]) => boolean,
): XmlElement {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Lines: counted forward as the reader moves, since the positions it asks about only grow (an
  // error naming an earlier position counts from the start, once).
  let line = 1;
  let counted = 0;
  let nextNewline = text.indexOf('\n');
  const lineOf = (offset: number): number => {
    if (offset < counted) {
      let earlier = 1;
      for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) earlier++;
      return earlier;
    }
    counted = offset;
    while (nextNewline >= 0 && nextNewline < offset) {
      line++;
      nextNewline = text.indexOf('\n', nextNewline + 1);
    }
    return line;
  };
  const malformed = (reason: string, offset: number): ParseError =>
    parseError(`malformed XML: ${reason}`, lineOf(offset), format);
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  /** The text ends inside something opened at `opened` (`what` names it). */
  const endsInside = (what: string, opened: number): ParseError => {
    const openedLine = lineOf(opened);
    const endLine = lineOf(text.trimEnd().length);
    const innermost = stack.at(-1);
    if (innermost) {
      return parseError(
        `the file ends inside <${innermost.name}> (opened at line ${innermost.line}): expected </${innermost.name}>; the file is cut short`,
        endLine,
        format,
        `<${innermost.name}>`,
      );
    }
    return parseError(
      `malformed XML: the file ends inside ${what} (opened at line ${openedLine})`,
      endLine,
      format,
    );
  };

  /** Text with its references checked; the predefined and numeric ones decoded. */
  const decode = (from: number, to: number): string => {
    const raw = text.slice(from, to);
    let amp = raw.indexOf('&');
    if (amp < 0) return raw;
    let out = '';
    let done = 0;
    while (amp >= 0) {
      REFERENCE.lastIndex = amp;
      const ref = REFERENCE.exec(raw);
      if (!ref) {
        throw malformed(
          `"&" must start a reference like &amp; (got "${excerpt(raw.slice(amp, amp + 12))}")`,
          from + amp,
        );
      }
      let value: string;
      if (ref[3] !== undefined) value = PREDEFINED[ref[3]] ?? ref[0];
      else {
        const code = ref[1] !== undefined ? Number(ref[1]) : Number.parseInt(ref[2] as string, 16);
        if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          throw malformed(`"${ref[0]}" is not a character`, from + amp);
        }
        value = String.fromCodePoint(code);
      }
      out += raw.slice(done, amp) + value;
      done = amp + ref[0].length;
      amp = raw.indexOf('&', done);
    }
    return out + raw.slice(done);
  };

  /** Just past the name starting at `at`, or `at` when no name starts there. */
  const nameEnd = (at: number): number => {
    const first = text.charCodeAt(at);
    if (!isNameStart(first)) return at;
    let i = at + 1;
    while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
    return i;
  };
  // Element names repeat: each distinct one is made into a string once and found again in place,
  // by its length and its first and last characters.
  const names = new Map<number, string>();
  let distinct = 0;
  const nameAt = (from: number, to: number): string => {
    // A small integer (two names may share one: the text is compared anyway).
    const key =
      (((to - from) & 0x3ff) << 20) |
      ((text.charCodeAt(from) & 0x3ff) << 10) |
      (text.charCodeAt(to - 1) & 0x3ff);
    const known = names.get(key);
    if (known !== undefined && text.startsWith(known, from)) return known;
    const name = text.slice(from, to);
    if (known === undefined && distinct++ < 256) names.set(key, name);
    return name;
  };
  const skipSpace = (at: number): number => {
    let i = at;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    return i;
  };

  const addText = (from: number, to: number) => {
    let i = from;
    while (i < to && isSpace(text.charCodeAt(i))) i++;
    if (i === to) return; // whitespace between elements
    const top = stack[stack.length - 1];
    if (!top) throw malformed(`text outside the root element: "${excerpt(text.slice(i, to).trim())}"`, i);
    top.text += decode(from, to);
  };

  /** An element just ended: offered to onClose, else kept as its parent's child. */
  const closed = (element: XmlElement) => {
    const parent = stack[stack.length - 1];
    if (!parent || onClose?.(element, stack)) return;
    if (parent.children) parent.children.push(element);
    else parent.children = [element];
  };

  for (;;) {
    const lt = text.indexOf('<', pos);
    addText(pos, lt < 0 ? text.length : lt);
    if (lt < 0) break;
    const next = text.charCodeAt(lt + 1);
    if (next === 0x2f /* / */) {
      const top = stack[stack.length - 1];
      const end = nameEnd(lt + 2);
      if (end === lt + 2) throw malformed('expected an element name after "</"', lt);
      const gt = skipSpace(end);
      // The usual case: the name of the element open, compared in place (no string made for it).
      const matches =
        top !== undefined && end - lt - 2 === top.name.length && text.startsWith(top.name, lt + 2);
      if (!matches || text.charCodeAt(gt) !== 0x3e /* > */) {
        const name = text.slice(lt + 2, end);
        if (gt >= text.length) throw endsInside(`</${name}`, lt);
        if (text.charCodeAt(gt) !== 0x3e) throw malformed(`expected ">" to end </${name}`, gt);
        if (!top) throw malformed(`</${name}> closes no element`, lt);
        throw malformed(`expected </${top.name}> (opened at line ${top.line}), found </${name}>`, lt);
      }
      stack.pop();
      if (top.text !== '') top.text = top.text.trim();
      closed(top);
      pos = gt + 1;
      continue;
    }
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const close = text.indexOf('-->', lt + 4);
        if (close < 0) throw endsInside('a comment', lt);
        pos = close + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const close = text.indexOf(']]>', lt + 9);
        if (close < 0) throw endsInside('a CDATA section', lt);
        const top = stack.at(-1);
        if (!top) throw malformed('CDATA outside the root element', lt);
        top.text += text.slice(lt + 9, close);
        pos = close + 3;
      } else if (text.startsWith('<!DOCTYPE', lt)) {
        if (root || stack.length > 0) throw malformed('a DOCTYPE after the root element started', lt);
        const gt = text.indexOf('>', lt);
        const bracket = text.indexOf('[', lt);
        if (bracket >= 0 && (gt < 0 || bracket < gt)) {
          DOCTYPE_SUBSET_END.lastIndex = bracket;
          const close = DOCTYPE_SUBSET_END.exec(text);
          if (!close) throw endsInside('the DOCTYPE', lt);
          pos = close.index + close[0].length;
        } else {
          if (gt < 0) throw endsInside('the DOCTYPE', lt);
          pos = gt + 1;
        }
      } else {
        throw malformed(`unknown markup "${excerpt(text.slice(lt, lt + 12))}"`, lt);
      }
      continue;
    }
    if (next === 0x3f /* ? */) {
      const close = text.indexOf('?>', lt + 2);
      if (close < 0) throw endsInside('a processing instruction', lt);
      pos = close + 2;
      continue;
    }
    // A start tag: <name (space name = "value")* space? (> | />)
    const end = nameEnd(lt + 1);
    if (end === lt + 1) {
      if (lt + 1 >= text.length) throw endsInside('a tag', lt);
      throw malformed(`expected an element name after "<", got "${excerpt(text.slice(lt, lt + 12))}"`, lt);
    }
    if (root && stack.length === 0) throw malformed('a second root element', lt);
    const element: XmlElement = {
      name: nameAt(lt + 1, end),
      line: lineOf(lt),
      attributes: undefined,
      children: undefined,
      text: '',
    };
    let at = end;
    let selfClosing = false;
    for (;;) {
      const spaced = skipSpace(at);
      const c = text.charCodeAt(spaced);
      if (c === 0x3e /* > */) {
        at = spaced + 1;
        break;
      }
      if (c === 0x2f /* / */ && text.charCodeAt(spaced + 1) === 0x3e) {
        at = spaced + 2;
        selfClosing = true;
        break;
      }
      if (spaced >= text.length || (c === 0x2f && spaced + 1 >= text.length)) {
        throw endsInside(`<${element.name}`, lt);
      }
      if (spaced === at) throw malformed(`expected a space, ">" or "/>" in <${element.name}>`, spaced);
      const nameStop = nameEnd(spaced);
      if (nameStop === spaced) throw malformed(`expected an attribute name in <${element.name}>`, spaced);
      const attribute = text.slice(spaced, nameStop);
      const equals = skipSpace(nameStop);
      if (equals >= text.length) throw endsInside(`<${element.name}`, lt);
      if (text.charCodeAt(equals) !== 0x3d /* = */) {
        throw malformed(`expected "=" after attribute ${attribute} of <${element.name}>`, equals);
      }
      const open = skipSpace(equals + 1);
      if (open >= text.length) throw endsInside(`<${element.name}`, lt);
      const quote = text[open];
      if (quote !== '"' && quote !== "'") {
        throw malformed(`expected a quoted value for attribute ${attribute} of <${element.name}>`, open);
      }
      const close = text.indexOf(quote, open + 1);
      if (close < 0) throw endsInside(`<${element.name}`, lt);
      const lessThan = text.indexOf('<', open + 1);
      if (lessThan >= 0 && lessThan < close) {
        throw malformed(`"<" in the value of attribute ${attribute} of <${element.name}>`, lessThan);
      }
      element.attributes ??= new Map();
      if (element.attributes.has(attribute)) {
        throw malformed(`attribute ${attribute} given twice in <${element.name}>`, spaced);
      }
      element.attributes.set(attribute, decode(open + 1, close));
      at = close + 1;
    }
    root ??= element;
    if (selfClosing) closed(element);
    else stack.push(element);
    pos = at;
  }
  if (stack.length > 0) throw endsInside('', text.length);
  if (!root) throw malformed('no element found', text.length);
  return root;
}

/** The children of `element` named `name`, in order. */
export function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  return element?.children?.filter((c) => c.name === name) ?? [];
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a || c >= 0xc0;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0xb7;
}
