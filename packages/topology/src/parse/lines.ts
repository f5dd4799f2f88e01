import { parseError } from './errors.ts';

/** Longer than any real line; refusing it first keeps every line regex linear. */
export const MAX_LINE_LENGTH = 4096;

/** The text's lines (LF or CRLF); a line longer than MAX_LINE_LENGTH is a ParseError there. */
export function textLines(text: string, format: string): string[] {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const length = (lines[i] as string).length;
    if (length > MAX_LINE_LENGTH) {
      throw parseError(`a line of ${length} characters (at most ${MAX_LINE_LENGTH} expected)`, i + 1, format);
    }
  }
  return lines;
}
