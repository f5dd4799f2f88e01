import type { LineStyle, ScreenLine, ScreenSize } from './render.ts';

const SGR: Record<LineStyle, string> = {
  plain: '',
  title: '\x1b[1m',
  heading: '\x1b[1m',
  hot: '\x1b[31m',
  warning: '\x1b[33m',
  footer: '\x1b[7m',
};
const RESET = '\x1b[0m';

/** Plain text for pipes and files: no escape codes, no trailing blanks. */
export function plainText(lines: ScreenLine[]): string {
  return `${lines.map((l) => l.text.trimEnd()).join('\n')}\n`;
}

/** One terminal frame; no newline after the last line, which would scroll. */
export function terminalFrame(lines: ScreenLine[]): string {
  const body = lines.map((l) => (SGR[l.style] ? `${SGR[l.style]}${l.text}${RESET}` : l.text));
  return `\x1b[H${body.join('\x1b[K\r\n')}\x1b[K\x1b[J`;
}

/** The terminal's size; a pipe's or file's is COLUMNS × LINES when set (as `top -b`), else the 80×24 minimum. */
export function screenSize(stdout: NodeJS.WriteStream, env: NodeJS.ProcessEnv): ScreenSize {
  return stdout.isTTY ? { width: stdout.columns ?? 80, height: stdout.rows ?? 24 } : sizeFromEnv(env);
}

/** Size of a pipe or file: COLUMNS × LINES when set (as `top -b`), else the 80×24 minimum. */
export function sizeFromEnv(env: NodeJS.ProcessEnv): ScreenSize {
  const read = (value: string | undefined, fallback: number) => {
    const n = Number(value);
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  return { width: read(env.COLUMNS, 80), height: read(env.LINES, 24) };
}

export const ENTER_SCREEN = '\x1b[?1049h\x1b[?25l';
export const LEAVE_SCREEN = '\x1b[?25h\x1b[?1049l';
