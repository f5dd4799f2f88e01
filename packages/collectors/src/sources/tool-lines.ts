import { excerpt, ParseError, STDERR_LINE, textLines } from '@fabscope/topology';

/**
 * Hands `onLine` each trimmed, non-blank line of a tool's output that is not stderr noise, with its
 * 1-based number, and returns the line count; a last line without its newline means a cut output.
 */
export function readToolLines(
  text: string,
  format: string,
  onLine: (line: string, at: number) => void,
): number {
  const lines = textLines(text, format);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    if (i + 1 === lines.length && !text.endsWith('\n')) {
      throw new ParseError(
        `the output ends in the middle of "${excerpt(line)}" (no newline): it is cut short`,
        {
          format,
          line: i + 1,
        },
      );
    }
    if (!STDERR_LINE.test(line)) onLine(line, i + 1);
  }
  return lines.length;
}
