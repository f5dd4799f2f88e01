import type { LinkDirectionState, Summary } from '@fabscope/contracts';
import { formatCount, formatEnds } from '../../lib/format.ts';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  categoryLight,
  type LightScope,
  ofThreshold,
  overThreshold,
  worstDirections,
} from '../../lib/linkHealth.ts';

const SCOPES: readonly { scope: LightScope; label: string }[] = [
  { scope: 'all', label: 'All ports' },
  { scope: 'isl', label: 'Switch ports (ISL)' },
  { scope: 'host', label: 'Host ports' },
];

// Without the word "threshold": the AR panel's control is labelled Threshold.
const LIGHT_TEXT = {
  ok: 'green, below 75 % of its limit',
  near: 'amber, 75 to 100 % of its limit',
  over: 'red, past its limit',
  unknown: 'grey, unknown',
};

/** opatop-style lights per PM category and port group, counts past threshold, and ports without readings. */
export function HealthLights({
  summary,
  links = null,
  onSelectLink,
}: {
  summary: Summary | null;
  /** The directions the client holds (all, or the stream's top): the worst are listed. */
  links?: readonly LinkDirectionState[] | null;
  /** Opens a direction: its flows, jobs and history. */
  onSelectLink?: ((id: string) => void) | undefined;
}) {
  const without = summary?.portsWithoutData;
  const worst = worstDirections(links, 5);
  return (
    <div className="health" data-testid="health-lights">
      <table className="health-lights">
        <caption>Health (PM categories)</caption>
        <thead>
          <tr>
            <th scope="col" className="hl-row" />
            {CATEGORIES.map((c) => (
              <th key={c} scope="col" className="hl-cell">
                {CATEGORY_LABELS[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {SCOPES.map(({ scope, label }) => (
            <tr key={scope}>
              <th scope="row" className="hl-row">
                {label}
              </th>
              {CATEGORIES.map((c) => {
                const light = categoryLight(summary, c, scope);
                const over = overThreshold(summary, c, scope);
                return (
                  <td
                    key={c}
                    className="hl-cell"
                    data-light={light}
                    data-category-name={c}
                    data-scope={scope}
                  >
                    <span
                      className={`light light-${light}`}
                      role="img"
                      aria-label={`${CATEGORY_LABELS[c]}, ${label}: ${LIGHT_TEXT[light]}`}
                      title={`${CATEGORY_LABELS[c]}, ${label}: ${LIGHT_TEXT[light]}${over ? ` (${over} link directions)` : ''}`}
                    />
                    {over ? <span className="light-count">{over}</span> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {worst.length > 0 && (
        <ol className="worst-directions" aria-label="Worst link directions">
          {worst.map((w) => (
            <li key={w.link.id} data-link-id={w.link.id}>
              {onSelectLink ? (
                <button type="button" className="link-button mono" onClick={() => onSelectLink(w.link.id)}>
                  {formatEnds(w.link)}
                </button>
              ) : (
                <span className="mono">{formatEnds(w.link)}</span>
              )}{' '}
              <span className="chip chip-health chip-over">
                {CATEGORY_LABELS[w.category]} {ofThreshold(w.value)}
              </span>
            </li>
          ))}
        </ol>
      )}
      <p className="muted small" data-testid="ports-without-data" data-count={without ?? ''}>
        Ports without data: {without === undefined ? 'unknown' : formatCount(without)}
      </p>
    </div>
  );
}
