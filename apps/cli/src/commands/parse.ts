import { readFile } from 'node:fs/promises';
import { text as streamText } from 'node:stream/consumers';
import { ConfigError } from '@fabscope/api/config';
import { parseOpapmaquery, parsePerfquery } from '@fabscope/collectors';
import { ParseError, parsingFile } from '@fabscope/topology';
import { PARSE_USAGE } from '../usage.js';
import type { Io } from './collect.ts';

/** JSON with BigInt values written as exact integers (JSON numbers have no size limit). */
export function exactJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `#bigint:${v}` : v), 2);
  return text.replace(/"#bigint:(\d+)"/g, '$1');
}

/** `fabscope parse perfquery|opapmaquery FILE`: the parsed counters as JSON, data in bytes. */
export async function parse(args: string[], io: Io): Promise<void> {
  const [tool, file, ...extra] = args;
  if ((tool !== 'perfquery' && tool !== 'opapmaquery') || !file || extra.length > 0) {
    throw new ConfigError(PARSE_USAGE.trim());
  }
  const text = await (file === '-' ? streamText(process.stdin) : readFile(file, 'utf8'));
  let ports: unknown[];
  try {
    ports = parsingFile(file === '-' ? 'stdin' : file, () =>
      tool === 'perfquery' ? parsePerfquery(text) : parseOpapmaquery(text),
    );
  } catch (error) {
    if (error instanceof ParseError) throw new ConfigError(error.message);
    throw error;
  }
  io.stdout(`${exactJson({ tool, dataUnit: 'bytes', ports })}\n`);
}
