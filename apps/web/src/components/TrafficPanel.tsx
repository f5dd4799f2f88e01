import { pathNodes, SEED_PAIRS } from '../lib/flows.ts';
import { formatGBps } from '../lib/format.ts';
import type { TrafficState } from '../state/useTraffic.ts';
import { ErrorNote } from './ErrorNote.tsx';

/** Flows listed; on a big fabric the rest are counted, not drawn. */
export const FLOWS_SHOWN = 20;

interface TrafficPanelProps {
  traffic: TrafficState;
  /** Whether the fabric has the seed-002 hosts (nodeA…nodeD); false hides that button. */
  seedAvailable?: boolean;
}

/** Start the seed-002 traffic pattern, stop all traffic, and list the active flows. */
export function TrafficPanel({ traffic, seedAvailable = true }: TrafficPanelProps) {
  const { flows } = traffic;
  const hidden = flows ? flows.slice(FLOWS_SHOWN) : [];
  const hiddenRate = hidden.reduce((sum, f) => sum + f.bytesPerSecond, 0);
  return (
    <div className="traffic">
      <div className="button-row">
        {seedAvailable && (
          <button
            type="button"
            className="btn btn-primary"
            disabled={traffic.busy}
            onClick={() => traffic.start({ pattern: 'pairs', pairs: SEED_PAIRS })}
          >
            Start seed pairs (A→C, B→D)
          </button>
        )}
        <button type="button" className="btn" disabled={traffic.busy} onClick={traffic.stop}>
          Stop traffic
        </button>
      </div>
      {traffic.error && <ErrorNote message={traffic.error} />}
      {flows === null ? (
        <p className="placeholder">Loading flows…</p>
      ) : flows.length === 0 ? (
        <p className="placeholder">No active flows.</p>
      ) : (
        <ul className="flows" aria-label="Active flows">
          {flows.slice(0, FLOWS_SHOWN).map((f) => (
            <li key={f.id} data-flow-id={f.id} data-bytes-per-second={f.bytesPerSecond}>
              <span className="flow-ends">
                {f.from} → {f.to}
              </span>
              <span className="flow-rate">{formatGBps(f.bytesPerSecond)}</span>
              <span className="flow-path mono muted">{pathNodes(f.path).join(' › ')}</span>
            </li>
          ))}
          {hidden.length > 0 && (
            <li className="muted">
              … and {hidden.length.toLocaleString('en')} more flows ({formatGBps(hiddenRate)} together)
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
