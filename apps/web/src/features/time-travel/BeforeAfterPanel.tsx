import { memo, useId, useMemo } from 'react';
import { DirectionButton } from '../../components/DirectionButton.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { TableScroll } from '../../components/TableScroll.tsx';
import { formatClock, formatPercentValue } from '../../lib/format.ts';
import { useRateFormat } from '../../state/preferences.ts';
import { BeforeAfterSides } from './BeforeAfterSides.tsx';
import { compareLinks, relativeChange } from './beforeAfter.ts';
import { DateTimeField } from './DateTimeField.tsx';
import { useInstant } from './usePastSnapshot.ts';

interface BeforeAfterPanelProps {
  beforeMs: number | null;
  afterMs: number | null;
  setBeforeMs: (ms: number | null) => void;
  setAfterMs: (ms: number | null) => void;
  /** Reads the instant shown when asked; null while nothing is shown. */
  shownNow: (() => number | null) | null;
  /** The newest sample (ms) while two instants are compared: nothing after it can be compared yet. */
  latestMs: number | null;
  /** Reads the newest sample when a button asks for it. */
  latestNow: () => number | null;
  /** The latest adaptive-routing change in the chart's window, if any (ms). */
  lastArChangeMs: number | null;
  tickSeconds: number;
  onOpenHistory: (id: string) => void;
  nowMs: number;
}

const CHANGED_LINKS = 10;

const InstantField = memo(function InstantField({
  label,
  ms,
  onChange,
  shownNow,
}: {
  label: string;
  ms: number | null;
  onChange: (ms: number | null) => void;
  shownNow: (() => number | null) | null;
}) {
  const id = useId();
  return (
    <div className="instant-field">
      <label htmlFor={id}>{label}</label>
      <DateTimeField id={id} ms={ms} onChange={onChange} />
      <button
        type="button"
        className="btn btn-small"
        disabled={shownNow === null}
        onClick={() => shownNow && onChange(shownNow())}
      >
        use instant shown
      </button>
    </div>
  );
});

/** A change in percentage points, signed; "—" when either side is unknown. Less wait reads as good. */
function DeltaCell({ delta, lowerIsBetter = false }: { delta: number | null; lowerIsBetter?: boolean }) {
  if (delta === null) return <td className="num">—</td>;
  const rounded = Math.abs(delta) < 0.0005 ? 0 : delta;
  const better = lowerIsBetter ? rounded < 0 : rounded > 0;
  const tone = rounded === 0 ? '' : better ? 'delta-up' : 'delta-down';
  return (
    <td className={`num ${tone}`}>
      {rounded > 0 ? '+' : ''}
      {formatPercentValue(rounded)}
    </td>
  );
}

/** Two rates in one prefix; an unknown one is "—". */
function sameUnitRates(
  rates: ReturnType<typeof useRateFormat>,
  before: number | null,
  after: number | null,
): [string, string] {
  const known = [before, after].filter((v): v is number => v !== null);
  const texts = rates.ticks(known);
  let k = 0;
  const text = (v: number | null) => (v === null ? rates.rate(null) : (texts[k++] ?? rates.rate(v)));
  const first = text(before);
  return [first, text(after)];
}

/** Two instants side by side, with the host transmit total and the directions that changed most. */
export const BeforeAfterPanel = memo(function BeforeAfterPanel({
  beforeMs,
  afterMs,
  setBeforeMs,
  setAfterMs,
  shownNow,
  latestMs,
  latestNow,
  lastArChangeMs,
  tickSeconds,
  onOpenHistory,
  nowMs,
}: BeforeAfterPanelProps) {
  const rates = useRateFormat();
  // An instant after the newest sample has no answer yet: it is not asked (nor cached) until then.
  const future = (ms: number | null) => ms !== null && latestMs !== null && ms > latestMs;
  const before = useInstant(future(beforeMs) ? null : beforeMs, latestMs);
  const after = useInstant(future(afterMs) ? null : afterMs, latestMs);
  const b = before.status === 'ready' ? before.data : null;
  const a = after.status === 'ready' ? after.data : null;
  const totalBefore = b?.summary.hostTransmitBytesPerSecond ?? null;
  const totalAfter = a?.summary.hostTransmitBytesPerSecond ?? null;
  const rel = relativeChange(totalBefore, totalAfter);
  // One unit in the table: both totals in the larger one's prefix (never Tb/s beside Gb/s).
  const totalsText = sameUnitRates(rates, totalBefore, totalAfter);
  const comparison = useMemo(
    () => (a && b ? compareLinks(b.links.links, a.links.links, { limit: CHANGED_LINKS }) : null),
    [a, b],
  );
  // Settled on both sides: a few ticks before the change, and a few after it has taken effect.
  const margin = Math.max(5, 5 * tickSeconds) * 1000;

  return (
    <div className="before-after">
      <div className="before-after-pick">
        <InstantField label="Before" ms={beforeMs} onChange={setBeforeMs} shownNow={shownNow} />
        <InstantField label="After" ms={afterMs} onChange={setAfterMs} shownNow={shownNow} />
        <button
          type="button"
          className="btn btn-small"
          disabled={lastArChangeMs === null}
          onClick={() => {
            if (lastArChangeMs === null) return;
            setBeforeMs(lastArChangeMs - margin);
            setAfterMs(Math.min(lastArChangeMs + 2 * margin, latestNow() ?? Number.POSITIVE_INFINITY));
          }}
          title={
            lastArChangeMs === null
              ? 'No adaptive-routing change in the chart window'
              : `Either side of the AR change at ${formatClock(lastArChangeMs, nowMs)}`
          }
        >
          around the last AR change
        </button>
      </div>
      {(future(beforeMs) || future(afterMs)) && (
        <p className="hint">An instant after the newest sample is compared once it has been sampled.</p>
      )}
      {before.status === 'error' && <ErrorNote message={`Before: ${before.message}`} />}
      {after.status === 'error' && <ErrorNote message={`After: ${after.message}`} />}
      {beforeMs === null || afterMs === null ? (
        <p className="placeholder">
          Choose two instants to compare, e.g. either side of an adaptive-routing change.
        </p>
      ) : (
        <>
          <TableScroll label="Totals before and after">
            <table className="compare compare-totals" aria-label="Totals before and after">
              <thead>
                <tr>
                  <th />
                  <th>before · {formatClock(beforeMs, nowMs)}</th>
                  <th>after · {formatClock(afterMs, nowMs)}</th>
                  <th>change</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Host transmit total</th>
                  <td className="num">{b ? totalsText[0] : '…'}</td>
                  <td className="num">{a ? totalsText[1] : '…'}</td>
                  <td className="num">
                    {rel === null ? '—' : `${rel >= 0 ? '+' : ''}${(rel * 100).toFixed(0)} %`}
                  </td>
                </tr>
              </tbody>
            </table>
          </TableScroll>
          {comparison && (
            <TableScroll label="Links that changed most">
              <table className="compare compare-links" aria-label="Links that changed most">
                <thead>
                  <tr>
                    <th>link direction</th>
                    <th className="num">util % before → after</th>
                    <th className="num">Δ util</th>
                    <th className="num">wait % before → after</th>
                    <th className="num">Δ wait</th>
                  </tr>
                </thead>
                <tbody>
                  {comparison.changes.length === 0 && (
                    <tr>
                      <td colSpan={5} className="muted">
                        No link direction's utilization or wait changed by 1 % or more.
                      </td>
                    </tr>
                  )}
                  {comparison.changes.map((c) => (
                    <tr key={c.id} data-link-id={c.id}>
                      <td className="mono">
                        <DirectionButton id={c.id} onOpen={onOpenHistory} title="Open its history" />
                      </td>
                      <td className="num">
                        {formatPercentValue(c.before)} → {formatPercentValue(c.after)}
                      </td>
                      <DeltaCell delta={c.delta} />
                      <td className="num">
                        {formatPercentValue(c.waitBefore)} → {formatPercentValue(c.waitAfter)}
                      </td>
                      <DeltaCell delta={c.waitDelta} lowerIsBetter />
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          <BeforeAfterSides
            before={b ? { links: b.links.links, summary: b.summary } : null}
            after={a ? { links: a.links.links, summary: a.summary } : null}
          />
          {comparison && comparison.unknown > 0 && (
            <p className="hint">
              {comparison.unknown} direction(s) unknown at one of the two instants, not compared.
            </p>
          )}
        </>
      )}
    </div>
  );
});
