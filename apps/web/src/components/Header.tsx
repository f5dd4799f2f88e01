import { memo } from 'react';
import type { LiveSnapshot, Topology } from '../api/types.ts';
import { networkTypes } from '../lib/fabricTerms.ts';
import { formatAge, formatFabricType } from '../lib/format.ts';
import { assessFreshness } from '../lib/freshness.ts';
import { staleDirectionCount } from '../lib/snapshot.ts';
import type { StreamConnection } from '../state/useFabricStream.ts';
import { useNow } from '../state/useNow.ts';
import type { Loadable } from '../state/useTopology.ts';
import { DisplayControls } from './DisplayControls.tsx';
import { SettingsMenu } from './SettingsMenu.tsx';

interface HeaderProps {
  topology: Loadable<Topology>;
  snapshot: LiveSnapshot | null;
  receivedAtMs: number | null;
  connection: StreamConnection;
  /** No message for longer than the silence limit, although the connection may look open. */
  silent: boolean;
  streamError: string | null;
}

const CONNECTION_LABEL: Record<StreamConnection, string> = {
  connecting: 'connecting…',
  open: 'live',
  reconnecting: 'reconnecting…',
};

/**
 * Fabric identity, store kind and how old the data is. Owns the only wall-clock ticker of the
 * page, for the age text and the stale banner; the data itself moves on stream ticks.
 */
export const Header = memo(function Header({
  topology,
  snapshot,
  receivedAtMs,
  connection,
  silent,
  streamError,
}: HeaderProps) {
  const now = useNow(250);
  const staleLinkCount = snapshot ? staleDirectionCount(snapshot) : 0;
  const freshness = assessFreshness({
    nowMs: now,
    receivedAtMs,
    lastSampleAgeSeconds: snapshot?.health.lastSampleAgeSeconds ?? null,
    staleLinkCount,
    policy: snapshot?.health,
  });
  const fabric = topology.status === 'ready' ? topology.data : null;

  return (
    <header className="app-header">
      <div className="app-header-row">
        <h1 className="brand">fabscope</h1>
        <div className="fabric-id">
          {fabric ? (
            <>
              <span className="fabric-name">{fabric.name}</span>
              {/* A mixed fabric names each of its networks ("Ethernet + InfiniBand"). */}
              <span className="chip">{networkTypes(fabric).map(formatFabricType).join(' + ')}</span>
            </>
          ) : (
            <span className="muted">
              {topology.status === 'error' ? 'fabric unknown' : 'loading fabric…'}
            </span>
          )}
        </div>
        <dl className="header-facts">
          <div>
            <dt>store</dt>
            <dd>{snapshot?.health.store ?? '—'}</dd>
          </div>
          <div>
            <dt>stream</dt>
            <dd className={`conn conn-${silent && connection === 'open' ? 'silent' : connection}`}>
              {silent && connection === 'open' ? 'stalled' : CONNECTION_LABEL[connection]}
            </dd>
          </div>
          <div>
            <dt>data</dt>
            <dd className={freshness.state === 'stale' ? 'text-stale' : ''} data-testid="data-age">
              {freshness.state === 'waiting'
                ? 'waiting for first sample…'
                : freshness.dataAgeSeconds === null
                  ? 'no sample yet'
                  : `data ${formatAge(freshness.dataAgeSeconds)} old`}
            </dd>
          </div>
        </dl>
        <DisplayControls />
        <SettingsMenu />
      </div>
      {freshness.state === 'stale' && (
        <div className="stale-banner" role="alert">
          <strong>
            {freshness.dataAgeSeconds === null
              ? 'Data is stale: no sample received yet'
              : `Data is stale: last sample ${Math.floor(freshness.dataAgeSeconds)} s ago`}
          </strong>
          <span> — {freshness.reasons.join('; ')}. Numbers shown are the last known values.</span>
        </div>
      )}
      {streamError && freshness.state !== 'stale' && <div className="stream-note">{streamError}</div>}
    </header>
  );
});
