import { pathNodes, SEED_PAIRS } from '../lib/flows.ts';
import { formatGBps } from '../lib/format.ts';
import type { TrafficState } from '../state/useTraffic.ts';
import { ErrorNote } from './ErrorNote.tsx';

/** Start the seed-002 traffic pattern, stop all traffic, and list the active flows. */
export function TrafficPanel({ traffic }: { traffic: TrafficState }) {
  const { flows } = traffic;
  return (
    <div className="traffic">
      <div className="button-row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={traffic.busy}
          onClick={() => traffic.start({ pattern: 'pairs', pairs: SEED_PAIRS })}
        >
          Start seed pairs (A→C, B→D)
        </button>
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
          {flows.map((f) => (
            <li key={f.id} data-flow-id={f.id} data-bytes-per-second={f.bytesPerSecond}>
              <span className="flow-ends">
                {f.from} → {f.to}
              </span>
              <span className="flow-rate">{formatGBps(f.bytesPerSecond)}</span>
              <span className="flow-path mono muted">{pathNodes(f.path).join(' › ')}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
