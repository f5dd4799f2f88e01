import type { JobReport, ReportDirection } from '@fabscope/contracts';
import { formatAge, formatPercent } from '../../lib/format.ts';
import { parseLinkSelection, selectLink, serializeLinkSelection } from '../../lib/linkSelection.ts';
import { serializeInstant } from '../../lib/timeRange.ts';

/** A figure over the report's window (mean, p95, max; null where nothing was known). */
export type FigureStats = ReportDirection['utilization'];
export type Blame = JobReport['culprits'][number];
export type Evidence = JobReport['evidence'][number];

/** Seconds of the report's window (0 when it is empty or unreadable). */
export function windowSeconds(report: Pick<JobReport, 'window'>): number {
  const seconds = (Date.parse(report.window.to) - Date.parse(report.window.from)) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

/** "42 s (73 %)": a time with its share of the window; just the time when the window is empty. */
export function secondsOfWindowText(seconds: number, window: number): string {
  return window > 0 ? `${formatAge(seconds)} (${formatPercent(seconds / window, 0)})` : formatAge(seconds);
}

/** "41 % · 88 % · 97 %" (mean · p95 · max), each "—" where unknown. */
export function statsText(stats: FigureStats): string {
  return [stats.mean, stats.p95, stats.max].map((v) => formatPercent(v, 0)).join(' · ');
}

/** "1002 61 % · (no job) 5 %": a direction's other users, the largest `shown`, the rest counted. */
export function usersText(users: ReportDirection['users'], shown = 3): string {
  if (users.length === 0) return '—';
  const listed = users.slice(0, shown).map((u) => `${u.job ?? '(no job)'} ${formatPercent(u.share, 0)}`);
  const rest = users.length - shown;
  return rest > 0 ? `${listed.join(' · ')} · +${rest}` : listed.join(' · ');
}

/** Whether a direction did anything to the job: time behind, errors raised or errored, a flap or time down. */
export function isHot(d: ReportDirection): boolean {
  return (
    d.behindSeconds > 0 ||
    d.errors.raised > 0 ||
    d.errors.erroredSeconds > 0 ||
    d.state.flaps > 0 ||
    d.state.downSeconds > 0
  );
}

/** The hot directions, in the report's order (worst first), and how many calm ones it also listed. */
export function hotDirections(directions: readonly ReportDirection[]): {
  hot: ReportDirection[];
  calm: number;
} {
  const hot = directions.filter(isHot);
  return { hot, calm: directions.length - hot.length };
}

/** A culprit's or victim's weight: "61 % of the time behind · 42 % of spine1/3 → leaf4/5's traffic". */
export function blameShares(b: Pick<Blame, 'behindShare' | 'share'>): { behind: string; traffic: string } {
  return { behind: formatPercent(b.behindShare, 0), traffic: formatPercent(b.share, 0) };
}

/**
 * The dashboard's URL at an evidence instant: time travel there (`at`), the Link tab on its direction
 * and its history open; the rest of the view (the job, the range) kept, so Back-to-job is a click.
 */
export function evidenceUrl(href: string, evidence: Pick<Evidence, 'time' | 'direction'>): string {
  const url = new URL(href);
  const ms = Date.parse(evidence.time);
  const at = Number.isNaN(ms) ? null : serializeInstant(ms);
  if (at === null) url.searchParams.delete('at');
  else url.searchParams.set('at', at);
  url.searchParams.set('tool', 'link');
  url.searchParams.set('link', evidence.direction);
  const links = selectLink(parseLinkSelection(url.searchParams.get('links')), evidence.direction);
  url.searchParams.set('links', serializeLinkSelection(links) ?? evidence.direction);
  return url.toString();
}

/** What the report could not know, one sentence each; empty when everything was known. */
export function unknownLines(report: Pick<JobReport, 'unknowns' | 'window' | 'job'>): string[] {
  const u = report.unknowns;
  const lines: string[] = [];
  if (u.hostsNotOnFabricTotal > 0) {
    const more = u.hostsNotOnFabricTotal - u.hostsNotOnFabric.length;
    const names = u.hostsNotOnFabric.join(', ') + (more > 0 ? ` and ${more} more` : '');
    lines.push(`${u.hostsNotOnFabricTotal} of its ${report.job.hosts} hosts not on this fabric: ${names}`);
  }
  if (u.unknownSeconds > 0) {
    lines.push(
      `Up to ${secondsOfWindowText(u.unknownSeconds, windowSeconds(report))} of the window without a sample on one of its directions`,
    );
  }
  if (u.gapsTotal > 0) {
    const more = u.gapsTotal - u.gaps.length;
    lines.push(
      `${u.gapsTotal} collection ${u.gapsTotal === 1 ? 'gap' : 'gaps'}${more > 0 ? ` (${u.gaps.length} listed)` : ''}`,
    );
  }
  lines.push(...u.notes);
  return lines;
}
