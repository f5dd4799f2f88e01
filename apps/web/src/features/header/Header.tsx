import type { Topology } from '@fabscope/contracts';
import { memo, type ReactNode, useMemo } from 'react';
import { networkTypes } from '../../lib/fabricTerms.ts';
import { formatAge, formatFabricType, formatStore } from '../../lib/format.ts';
import { assessFreshness } from '../../lib/freshness.ts';
import { staleDirectionCount } from '../../lib/snapshot.ts';
import type { FabricStreamState, StreamConnection } from '../../state/liveStream.ts';
import type { Loadable } from '../../state/useTopology.ts';
import { AlarmCounts } from './AlarmCounts.tsx';
import { DisplayControls } from './DisplayControls.tsx';
import { SettingsMenu } from './SettingsMenu.tsx';
import { useFreshnessNow } from './useFreshnessNow.ts';

/** The topology, the instant viewed (null: now) and the live stream's state (its newest message, connection…). */
type HeaderProps = FabricStreamState & { topology: Loadable<Topology>; atMs?: number | null };

const CONNECTION_LABEL: Record<StreamConnection, string> = {
  connecting: 'connecting…',
  open: 'live',
  reconnecting: 'reconnecting…',
};

/** Fabric identity, store kind and the data's age. */
export const Header = memo(function Header({ topology, atMs = null, ...stream }: HeaderProps) {
  const { snapshot } = stream;
  const fabric = topology.status === 'ready' ? topology.data : null;
  const staleLinkCount = useMemo(() => (snapshot ? staleDirectionCount(snapshot) : 0), [snapshot]);
  // Made here, so the ticker's re-renders (Freshness) find the same elements and leave them be.
  const identity = (
    <>
      <h1 className="brand">fabscope</h1>
      <div className="fabric-id">
        {fabric ? (
          <>
            <span className="fabric-name">{fabric.name}</span>
            {/* A mixed fabric names each of its networks ("Ethernet + InfiniBand"). */}
            <span className="chip">{networkTypes(fabric).map(formatFabricType).join(' + ')}</span>
          </>
        ) : (
          <span className="muted">{topology.status === 'error' ? 'fabric unknown' : 'loading fabric…'}</span>
        )}
      </div>
    </>
  );
  const controls = (
    <>
      <AlarmCounts atMs={atMs} />
      <DisplayControls />
      <SettingsMenu />
    </>
  );

  return (
    <header className="app-header">
      <Freshness {...stream} identity={identity} controls={controls} staleLinkCount={staleLinkCount} />
    </header>
  );
});

/** The row around the data's age: the page's only wall-clock timer re-renders this alone. */
function Freshness({
  identity,
  controls,
  snapshot,
  receivedAtMs,
  staleLinkCount,
  connection,
  silent,
  error,
}: Omit<HeaderProps, 'topology' | 'atMs'> & {
  identity: ReactNode;
  controls: ReactNode;
  staleLinkCount: number;
}) {
  const health = snapshot?.health;
  const now = useFreshnessNow(receivedAtMs, health?.lastSampleAgeSeconds ?? null, health);
  const freshness = assessFreshness({
    nowMs: now,
    receivedAtMs,
    lastSampleAgeSeconds: health?.lastSampleAgeSeconds ?? null,
    staleLinkCount,
    policy: health,
  });
  return (
    <>
      <div className="app-header-row">
        {identity}
        <dl className="header-facts">
          <div>
            <dt>store</dt>
            <dd>{formatStore(health)}</dd>
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
        {controls}
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
      {error && freshness.state !== 'stale' && <div className="stream-note">{error}</div>}
    </>
  );
}
