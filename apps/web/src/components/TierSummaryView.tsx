import { useMemo } from 'react';
import type { CompactSnapshot, Topology } from '../api/types.ts';
import { utilizationColor } from '../lib/colors.ts';
import { formatGBps, formatPercent } from '../lib/format.ts';
import { buildTierGroups, HOT_UTILIZATION, type LoadStats, summarizeTiers } from '../lib/tierSummary.ts';
import { Legend } from './Legend.tsx';

interface TierSummaryViewProps {
  topology: Topology;
  /** Why the port-level heatmap does not apply. */
  reason: string;
  snapshot: CompactSnapshot | null;
}

/** Pods listed, hottest first. */
const PODS_SHOWN = 12;

function Util({ value }: { value: number | null }) {
  return (
    <span className="util-chip">
      <span className="swatch" style={{ background: utilizationColor(value) }} aria-hidden="true" />
      {formatPercent(value)}
    </span>
  );
}

function staleNote(s: LoadStats): string {
  const unknown = s.directions - s.known;
  return unknown > 0 ? ` (${unknown.toLocaleString('en')} unknown)` : '';
}

/**
 * Aggregated view for fabrics the port-level heatmap does not cover (three tiers: tens of
 * thousands of links): load per tier and direction, and the hottest pods. A few table rows, never
 * one element per link.
 */
export function TierSummaryView({ topology, reason, snapshot }: TierSummaryViewProps) {
  const groups = useMemo(() => buildTierGroups(topology), [topology]);
  const summary = useMemo(
    () => (snapshot ? summarizeTiers(groups, snapshot.utilization, snapshot.bytesPerSecond) : null),
    [groups, snapshot],
  );
  const hot = `≥ ${HOT_UTILIZATION * 100} %`;
  return (
    <div className="tier-summary">
      <p className="muted">
        {topology.name}: {topology.links.length.toLocaleString('en')} links; {reason}. The port-level heatmap
        is for two-tier fabrics; here is the load per tier and per pod. The busiest link directions are ranked
        below.
      </p>
      {summary === null && <p className="placeholder">Waiting for the first sample…</p>}
      {summary && (
        <>
          <table className="agg-table">
            <caption>Load per tier</caption>
            <thead>
              <tr>
                <th scope="col">Direction</th>
                <th scope="col" className="num">
                  Link directions
                </th>
                <th scope="col" className="num">
                  Mean
                </th>
                <th scope="col" className="num">
                  Max
                </th>
                <th scope="col" className="num">
                  {hot}
                </th>
                <th scope="col" className="num">
                  Throughput
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.rows.map((r) => (
                <tr key={r.label}>
                  <th scope="row">{r.label}</th>
                  <td className="num">
                    {r.directions.toLocaleString('en')}
                    <span className="muted">{staleNote(r)}</span>
                  </td>
                  <td className="num">
                    <Util value={r.mean} />
                  </td>
                  <td className="num">
                    <Util value={r.max} />
                  </td>
                  <td className="num">{r.hot.toLocaleString('en')}</td>
                  <td className="num">{formatGBps(r.bytesPerSecond, 1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="agg-table">
            <caption>Hottest pods (of {summary.pods.length}) by busiest ISL direction</caption>
            <thead>
              <tr>
                <th scope="col">Pod</th>
                <th scope="col" className="num">
                  Switches
                </th>
                <th scope="col" className="num">
                  Hosts
                </th>
                <th scope="col" className="num">
                  ISL max
                </th>
                <th scope="col" className="num">
                  ISL mean
                </th>
                <th scope="col" className="num">
                  Host links max
                </th>
                <th scope="col" className="num">
                  ISLs {hot}
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.pods.slice(0, PODS_SHOWN).map((p) => (
                <tr key={p.name}>
                  <th scope="row">{p.name}</th>
                  <td className="num">{p.switches}</td>
                  <td className="num">{p.hosts.toLocaleString('en')}</td>
                  <td className="num">
                    <Util value={p.isl.max} />
                  </td>
                  <td className="num">
                    <Util value={p.isl.mean} />
                  </td>
                  <td className="num">
                    <Util value={p.host.max} />
                  </td>
                  <td className="num">{p.isl.hot}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <div className="fat-tree-footer">
        <Legend />
      </div>
    </div>
  );
}
