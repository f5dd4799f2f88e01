import type { Alarm } from '@fabscope/contracts';
import { formatClock } from '../../lib/format.ts';

type Member = Alarm['members'][number];

/** "1 direction's value unknown since 12:04:10: <reason>": an alarm kept raised while its value is unknown. */
export function unknownNote(unknown: Alarm['unknown'], nowMs: number = Date.now()): string | null {
  if (!unknown) return null;
  const whose = unknown.count === 1 ? "1 direction's value" : `${unknown.count} directions' values`;
  return `${whose} unknown since ${formatClock(Date.parse(unknown.since), nowMs)}: ${unknown.reason}`;
}

/** A member's value: "3.50 × threshold", or "unknown since 12:04:10 (last 3.50 × threshold): <reason>". */
export function memberValueText(member: Member, nowMs: number = Date.now()): string {
  const value = `${member.value.toFixed(2)} × threshold`;
  if (member.unknownSince === undefined) return value;
  const since = formatClock(Date.parse(member.unknownSince), nowMs);
  return `unknown since ${since} (last ${value})${member.unknownReason ? `: ${member.unknownReason}` : ''}`;
}

/** The API's summary without its "; 2 unknown since …" tail, where the unknown note says it instead. */
export function summaryShown(summary: string, unknown: Alarm['unknown']): string {
  if (!unknown) return summary;
  const tail = summary.indexOf(`; ${unknown.count} unknown since `);
  return tail < 0 ? summary : summary.slice(0, tail);
}
