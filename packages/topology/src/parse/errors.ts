/** Where a parse failed: the format, and the file, line and XML element when known. */
export interface ParseLocation {
  /** The format being read (`perfquery`, `opareport topology`, `ibroute`, …). */
  format: string;
  file?: string | undefined;
  /** 1-based line number. */
  line?: number | undefined;
  /** The XML element at fault, for XML formats. */
  element?: string | undefined;
}

/** Input not in its claimed format, naming file, line and what was expected; the only error parsers throw. */
export class ParseError extends Error {
  override name = 'ParseError';
  readonly format: string;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly element: string | undefined;

  constructor(
    /** What was expected and what was found. */
    readonly reason: string,
    where: ParseLocation,
  ) {
    const source = where.file === undefined ? where.format : `${where.file} (${where.format})`;
    const line = where.line === undefined ? '' : `line ${where.line}: `;
    const element = where.element === undefined ? '' : `${where.element}: `;
    super(printable(`${source}: ${line}${element}${reason}`));
    this.format = where.format;
    this.file = where.file;
    this.line = where.line;
    this.element = where.element;
  }

  /** The same error, naming the file it came from. */
  inFile(file: string): ParseError {
    return new ParseError(this.reason, { ...this, file });
  }
}

/** Text safe for a terminal: control characters, lone surrogates and U+FFFD escaped. */
export function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if ((code >= 0xd800 && code <= 0xdfff) || code === 0xfffd || code === 0xfeff)
      out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return out;
}

/** A line quoted in an error: cut to `max` characters, made printable. */
export function excerpt(text: string, max = 60): string {
  const chars = [...text];
  return printable(chars.length > max ? `${chars.slice(0, max).join('')}…` : text);
}

/** Shorthand for the parsers: `parseError(reason, line, format, element)`. */
export function parseError(
  reason: string,
  line: number | undefined,
  format: string,
  element?: string,
): ParseError {
  return new ParseError(reason, { format, line, element });
}

/** A GUID field of a parsed file, normalized; one that is not a GUID is a ParseError there. */
export function guidField(text: string, line: number | undefined, format: string, element?: string): string {
  const hex = text.trim().replace(/^0x/i, '');
  if (!/^[0-9a-f]{1,16}$/i.test(hex)) {
    throw parseError(
      `expected a GUID (0x and up to 16 hex digits), got "${excerpt(text)}"`,
      line,
      format,
      element,
    );
  }
  return `0x${hex.toLowerCase().padStart(16, '0')}`;
}

/** Runs a parser on a file's text; a ParseError it throws names the file. */
export function parsingFile<T>(file: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw error instanceof ParseError ? error.inFile(file) : error;
  }
}
