import { parseArgs } from 'node:util';
import { ConfigError } from '@fabscope/api/config';
import type { JobReport } from '@fabscope/contracts';

export const WHY_USAGE = `why JOB [--url URL] [--from T] [--to T] [--token T] [--json]
                        what slowed a job (running or finished): the verdict, the jobs on its
                        congested links, its worst link directions and what is unknown`;

const DEFAULT_URL = 'http://127.0.0.1:8080';
/** Directions printed: the worst ones; the report lists up to 100 and `--json` has them all. */
const DIRECTIONS_SHOWN = 10;
/** Longest wait for the report: an hour of a big job's history is seconds, not minutes. */
const TIMEOUT_MS = 60_000;

const pct = (x: number | null) => (x === null ? '—' : `${Math.round(100 * x)} %`);
const secs = (s: number) => (s >= 120 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`);

/** The report as text for a terminal: verdict first, then who, where, when, and what is not known. */
export function renderJobReport(r: JobReport): string {
  const out: string[] = [];
  const { job, window: w } = r;
  const who = [job.name !== job.id ? job.name : null, job.user].filter((x) => x).join(', ');
  out.push(
    `job ${job.id}${who ? ` (${who})` : ''} ${job.state}, ${job.hostsOnFabric} of ${job.hosts} hosts on the fabric`,
  );
  out.push(`window ${w.from} → ${w.to}${w.asked ? '' : ' (its run)'}, step ${w.stepSeconds} s`);
  out.push(`traffic: ${r.pattern.statement}; routes ${routesSaid(r.routes)}`);
  out.push('', `verdict: ${r.verdict.text}`);
  table(
    out,
    'culprits (jobs on its congested directions)',
    ['job', 'direction', 'share', 'of its time'],
    r.culprits,
  );
  table(out, 'victims (jobs it slowed)', ['job', 'direction', 'its share', 'of their time'], r.victims);
  out.push(
    '',
    `worst link directions (${Math.min(DIRECTIONS_SHOWN, r.directions.length)} of ${r.directionsTotal})`,
  );
  out.push(row(['direction', 'behind', 'util mean/p95/max', 'XmitWait p95', 'errors', 'flaps', 'others']));
  for (const d of r.directions.slice(0, DIRECTIONS_SHOWN)) {
    const u = d.utilization;
    const others = d.users.map((x) => `${x.job ?? '(no job)'} ${pct(x.share)}`).join(', ');
    out.push(
      row([
        d.id,
        secs(d.behindSeconds),
        `${pct(u.mean)}/${pct(u.p95)}/${pct(u.max)}`,
        pct(d.transmitWait.p95),
        String(d.errors.raised),
        String(d.state.flaps),
        others || '—',
      ]),
    );
  }
  if (r.evidence.length > 0) {
    out.push('', 'evidence (open a link at ?time=)');
    for (const e of r.evidence) out.push(`  ${e.time}  ${e.direction}  ${e.what}`);
  }
  out.push('', 'unknown');
  const u = r.unknowns;
  if (u.hostsNotOnFabricTotal > 0)
    out.push(
      `  ${u.hostsNotOnFabricTotal} host(s) not on the fabric: ${u.hostsNotOnFabric.join(', ')}${u.hostsNotOnFabricTotal > u.hostsNotOnFabric.length ? ', …' : ''}`,
    );
  out.push(`  up to ${secs(u.unknownSeconds)} of the window without samples on a direction`);
  if (u.gapsTotal > 0)
    out.push(
      `  ${u.gapsTotal} collection gap(s), first at ${u.gaps[0]?.time} (${u.gaps[0]?.subject}: ${u.gaps[0]?.what})`,
    );
  for (const note of u.notes) out.push(`  ${note}`);
  return `${out.join('\n')}\n`;
}

function routesSaid(routes: JobReport['routes']): string {
  const from = {
    measured: 'as its flows run',
    'subnet-manager': "from the subnet manager's tables",
    computed: 'computed by fabscope',
  }[routes.source];
  const ar = routes.adaptiveRouting;
  return `${from} (${routes.total}${routes.omitted > 0 ? `, ${routes.listed.length} listed` : ''}); adaptive routing ${ar.state} (${ar.detail})`;
}

function table(out: string[], title: string, head: string[], rows: JobReport['culprits']): void {
  out.push('', title);
  if (rows.length === 0) {
    out.push('  none');
    return;
  }
  out.push(row(head));
  for (const b of rows) out.push(row([b.job, b.direction, pct(b.share), pct(b.behindShare)]));
}

function row(cells: string[]): string {
  const widths = [24, 30, 10, 18, 12, 7, 6];
  return `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 10))).join(' ')}`.trimEnd();
}

function parseWhyArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        url: { type: 'string', default: DEFAULT_URL },
        from: { type: 'string' },
        to: { type: 'string' },
        token: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}\nusage: fabscope ${WHY_USAGE.split('\n')[0]}`);
  }
}

/** `fabscope why JOB`: asks a fabscope server for the job's report and prints it (or its JSON). */
export async function whyCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseWhyArgs(args);
  if (values.help) {
    process.stdout.write(`usage: fabscope ${WHY_USAGE}\n`);
    return;
  }
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0)
    throw new ConfigError(`give one job id\nusage: fabscope ${WHY_USAGE.split('\n')[0]}`);
  let base: URL;
  try {
    base = new URL(`/api/v1/jobs/${encodeURIComponent(id)}/report`, values.url);
  } catch {
    throw new ConfigError(`--url must be an http:// or https:// address, got "${values.url}"`);
  }
  if (values.from !== undefined) base.searchParams.set('from', values.from);
  if (values.to !== undefined) base.searchParams.set('to', values.to);
  const token = values.token ?? process.env.FABSCOPE_API_TOKEN;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(base, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    process.stderr.write(`fabscope why: ${values.url} did not answer: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  const body = (await res.json().catch(() => null)) as (JobReport & { message?: string }) | null;
  if (!res.ok || body === null) {
    process.stderr.write(`fabscope why: ${res.status} ${body?.message ?? res.statusText}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(values.json ? `${JSON.stringify(body, null, 2)}\n` : renderJobReport(body));
}
