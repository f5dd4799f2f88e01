import { excerpt, type ParseError, parseError } from './errors.ts';
import { decodeReferences, isNameChar, isNameStart, isSpace, LineCounter } from './xml-text.ts';

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

/** Called as each element closes; true when it was used up and is not kept as its parent's child. */
export type OnXmlClose = (element: XmlElement, ancestors: readonly XmlElement[]) => boolean;

const DOCTYPE_SUBSET_END = /\]\s*>/g;

/** An XML root element in one forward pass; entities beyond the predefined and numeric are never expanded. */
export function readXml(text: string, format: string, onClose?: OnXmlClose): XmlElement {
  return new XmlReader(text, format, onClose).read();
}

/** The children of `element` named `name`, in order. */
export function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  return element?.children?.filter((c) => c.name === name) ?? [];
}

class XmlReader {
  private pos: number;
  private readonly stack: XmlElement[] = [];
  private root: XmlElement | undefined;
  private readonly lines: LineCounter;
  private readonly fail = (reason: string, offset: number): ParseError => this.malformed(reason, offset);
  // Element names repeat: each distinct one is made into a string once and found again in place.
  private readonly names = new Map<number, string>();
  private distinct = 0;

  constructor(
    private readonly text: string,
    private readonly format: string,
    private readonly onClose: OnXmlClose | undefined,
  ) {
    this.pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.lines = new LineCounter(text);
  }

  read(): XmlElement {
    const { text } = this;
    for (;;) {
      const lt = text.indexOf('<', this.pos);
      this.addText(this.pos, lt < 0 ? text.length : lt);
      if (lt < 0) break;
      const next = text.charCodeAt(lt + 1);
      if (next === 0x2f /* / */) this.pos = this.endTag(lt);
      else if (next === 0x21 /* ! */) this.pos = this.markup(lt);
      else if (next === 0x3f /* ? */) this.pos = this.processingInstruction(lt);
      else this.pos = this.startTag(lt);
    }
    if (this.stack.length > 0) throw this.endsInside('', text.length);
    if (!this.root) throw this.malformed('no element found', text.length);
    return this.root;
  }

  private malformed(reason: string, offset: number): ParseError {
    return parseError(`malformed XML: ${reason}`, this.lines.lineOf(offset), this.format);
  }

  /** The text ends inside something opened at `opened` (`what` names it). */
  private endsInside(what: string, opened: number): ParseError {
    const openedLine = this.lines.lineOf(opened);
    const endLine = this.lines.lineOf(this.text.trimEnd().length);
    const innermost = this.stack.at(-1);
    if (innermost) {
      return parseError(
        `the file ends inside <${innermost.name}> (opened at line ${innermost.line}): expected </${innermost.name}>; the file is cut short`,
        endLine,
        this.format,
        `<${innermost.name}>`,
      );
    }
    return parseError(
      `malformed XML: the file ends inside ${what} (opened at line ${openedLine})`,
      endLine,
      this.format,
    );
  }

  private decode(from: number, to: number): string {
    return decodeReferences(this.text, from, to, this.fail);
  }

  private nameAt(from: number, to: number): string {
    const { text } = this;
    // A small integer key (two names may share one: the text is compared anyway).
    const key =
      (((to - from) & 0x3ff) << 20) |
      ((text.charCodeAt(from) & 0x3ff) << 10) |
      (text.charCodeAt(to - 1) & 0x3ff);
    const known = this.names.get(key);
    if (known !== undefined && text.startsWith(known, from)) return known;
    const name = text.slice(from, to);
    if (known === undefined && this.distinct++ < 256) this.names.set(key, name);
    return name;
  }

  private addText(from: number, to: number): void {
    let i = from;
    while (i < to && isSpace(this.text.charCodeAt(i))) i++;
    if (i === to) return; // whitespace between elements
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      throw this.malformed(`text outside the root element: "${excerpt(this.text.slice(i, to).trim())}"`, i);
    }
    top.text += this.decode(from, to);
  }

  /** An element just ended: offered to onClose, else kept as its parent's child. */
  private closed(element: XmlElement): void {
    const parent = this.stack[this.stack.length - 1];
    if (!parent || this.onClose?.(element, this.stack)) return;
    if (parent.children) parent.children.push(element);
    else parent.children = [element];
  }

  /** `</name>` at `lt`; returns the position after it. */
  private endTag(lt: number): number {
    const { text, stack } = this;
    const top = stack[stack.length - 1];
    const end = nameEnd(text, lt + 2);
    if (end === lt + 2) throw this.malformed('expected an element name after "</"', lt);
    const gt = skipSpace(text, end);
    // The usual case: the name of the element open, compared in place (no string made for it).
    const matches =
      top !== undefined && end - lt - 2 === top.name.length && text.startsWith(top.name, lt + 2);
    if (!matches || text.charCodeAt(gt) !== 0x3e /* > */) {
      const name = text.slice(lt + 2, end);
      if (gt >= text.length) throw this.endsInside(`</${name}`, lt);
      if (text.charCodeAt(gt) !== 0x3e) throw this.malformed(`expected ">" to end </${name}`, gt);
      if (!top) throw this.malformed(`</${name}> closes no element`, lt);
      throw this.malformed(`expected </${top.name}> (opened at line ${top.line}), found </${name}>`, lt);
    }
    stack.pop();
    if (top.text !== '') top.text = top.text.trim();
    this.closed(top);
    return gt + 1;
  }

  /** A comment, CDATA section or DOCTYPE at `lt`; returns the position after it. */
  private markup(lt: number): number {
    const { text } = this;
    if (text.startsWith('<!--', lt)) {
      const close = text.indexOf('-->', lt + 4);
      if (close < 0) throw this.endsInside('a comment', lt);
      return close + 3;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const close = text.indexOf(']]>', lt + 9);
      if (close < 0) throw this.endsInside('a CDATA section', lt);
      const top = this.stack.at(-1);
      if (!top) throw this.malformed('CDATA outside the root element', lt);
      top.text += text.slice(lt + 9, close);
      return close + 3;
    }
    if (text.startsWith('<!DOCTYPE', lt)) return this.doctype(lt);
    throw this.malformed(`unknown markup "${excerpt(text.slice(lt, lt + 12))}"`, lt);
  }

  private doctype(lt: number): number {
    const { text } = this;
    if (this.root || this.stack.length > 0)
      throw this.malformed('a DOCTYPE after the root element started', lt);
    const gt = text.indexOf('>', lt);
    const bracket = text.indexOf('[', lt);
    if (bracket >= 0 && (gt < 0 || bracket < gt)) {
      DOCTYPE_SUBSET_END.lastIndex = bracket;
      const close = DOCTYPE_SUBSET_END.exec(text);
      if (!close) throw this.endsInside('the DOCTYPE', lt);
      return close.index + close[0].length;
    }
    if (gt < 0) throw this.endsInside('the DOCTYPE', lt);
    return gt + 1;
  }

  private processingInstruction(lt: number): number {
    const close = this.text.indexOf('?>', lt + 2);
    if (close < 0) throw this.endsInside('a processing instruction', lt);
    return close + 2;
  }

  /** A start tag `<name (space name = "value")* space? (> | />)` at `lt`; returns the position after it. */
  private startTag(lt: number): number {
    const { text } = this;
    const end = nameEnd(text, lt + 1);
    if (end === lt + 1) {
      if (lt + 1 >= text.length) throw this.endsInside('a tag', lt);
      throw this.malformed(
        `expected an element name after "<", got "${excerpt(text.slice(lt, lt + 12))}"`,
        lt,
      );
    }
    if (this.root && this.stack.length === 0) throw this.malformed('a second root element', lt);
    const element: XmlElement = {
      name: this.nameAt(lt + 1, end),
      line: this.lines.lineOf(lt),
      attributes: undefined,
      children: undefined,
      text: '',
    };
    let at = end;
    for (;;) {
      const spaced = skipSpace(text, at);
      const c = text.charCodeAt(spaced);
      if (c === 0x3e /* > */) {
        this.root ??= element;
        this.stack.push(element);
        return spaced + 1;
      }
      if (c === 0x2f /* / */ && text.charCodeAt(spaced + 1) === 0x3e) {
        this.root ??= element;
        this.closed(element);
        return spaced + 2;
      }
      if (spaced >= text.length || (c === 0x2f && spaced + 1 >= text.length)) {
        throw this.endsInside(`<${element.name}`, lt);
      }
      if (spaced === at) throw this.malformed(`expected a space, ">" or "/>" in <${element.name}>`, spaced);
      at = this.attribute(element, lt, spaced);
    }
  }

  /** One `name = "value"` of `element` (opened at `lt`) starting at `from`; returns the position after it. */
  private attribute(element: XmlElement, lt: number, from: number): number {
    const { text } = this;
    const nameStop = nameEnd(text, from);
    if (nameStop === from) throw this.malformed(`expected an attribute name in <${element.name}>`, from);
    const attribute = text.slice(from, nameStop);
    const equals = skipSpace(text, nameStop);
    if (equals >= text.length) throw this.endsInside(`<${element.name}`, lt);
    if (text.charCodeAt(equals) !== 0x3d /* = */) {
      throw this.malformed(`expected "=" after attribute ${attribute} of <${element.name}>`, equals);
    }
    const open = skipSpace(text, equals + 1);
    if (open >= text.length) throw this.endsInside(`<${element.name}`, lt);
    const quote = text[open];
    if (quote !== '"' && quote !== "'") {
      throw this.malformed(`expected a quoted value for attribute ${attribute} of <${element.name}>`, open);
    }
    const close = text.indexOf(quote, open + 1);
    if (close < 0) throw this.endsInside(`<${element.name}`, lt);
    const lessThan = text.indexOf('<', open + 1);
    if (lessThan >= 0 && lessThan < close) {
      throw this.malformed(`"<" in the value of attribute ${attribute} of <${element.name}>`, lessThan);
    }
    element.attributes ??= new Map();
    if (element.attributes.has(attribute)) {
      throw this.malformed(`attribute ${attribute} given twice in <${element.name}>`, from);
    }
    element.attributes.set(attribute, this.decode(open + 1, close));
    return close + 1;
  }
}

/** Just past the name starting at `at`, or `at` when no name starts there. */
function nameEnd(text: string, at: number): number {
  if (!isNameStart(text.charCodeAt(at))) return at;
  let i = at + 1;
  while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
  return i;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}
