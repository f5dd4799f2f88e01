import { SOURCE_SERIES } from '@fabscope/contracts/metrics';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { FabricSnapshot } from './port-sample.ts';

/** The fabric agent's own series: how reading its source went, per read and per target. */
export interface SourceHealth {
  readSucceeded(): void;
  readFailed(): void;
  /** After a read (null when it failed): its duration, its MADs and how each target went. */
  readDone(durationSeconds: number, snapshot: FabricSnapshot | null): void;
}

export function sourceHealth(registry: Registry, source: string): SourceHealth {
  const registers = [registry];
  const gauge = (name: string, help: string, labelNames = ['source']) =>
    new Gauge({ name, help, labelNames, registers });
  const counter = (name: string, help: string, labelNames = ['source']) =>
    new Counter({ name, help, labelNames, registers });
  const byTarget = ['source', 'target'];
  const sourceUp = gauge(SOURCE_SERIES.up, '1 when the last read of the fabric source succeeded');
  const duration = gauge(SOURCE_SERIES.readDuration, 'Time the last read of the fabric source took');
  const errors = counter(SOURCE_SERIES.errors, 'Failed reads of the fabric source');
  errors.inc({ source }, 0);
  const targetUp = gauge(
    'fabscope_fabric_target_up',
    '1 when the last query of this target (switch or port) succeeded',
    byTarget,
  );
  const targetDuration = gauge(
    'fabscope_fabric_target_collect_duration_seconds',
    'Time the last query of this target took',
    byTarget,
  );
  const targetErrors = counter(
    'fabscope_fabric_target_errors_total',
    'Queries of this target that failed',
    byTarget,
  );
  const targetTimeouts = counter(
    'fabscope_fabric_target_timeouts_total',
    'Queries of this target that timed out',
    byTarget,
  );
  const madsSent = counter(
    'fabscope_fabric_mads_sent_total',
    'Management datagrams sent to read the fabric (InfiniBand: PortInfo, PortCounters, PortCountersExtended)',
  );
  const madRetries = counter(
    'fabscope_fabric_mad_retries_total',
    'MADs sent again after no answer within the timeout (what perfquery reports as "_do_madrpc: recv failed")',
  );
  const portsUnread = gauge(
    'fabscope_fabric_ports_unread',
    'Ports of the last read with an attribute that did not answer after every retry (their counters are absent, not 0)',
  );
  return {
    readSucceeded: () => sourceUp.set({ source }, 1),
    readFailed() {
      sourceUp.set({ source }, 0);
      errors.inc({ source });
    },
    readDone(durationSeconds, snapshot) {
      duration.set({ source }, durationSeconds);
      if (snapshot?.mads) {
        madsSent.inc({ source }, snapshot.mads.sent);
        madRetries.inc({ source }, snapshot.mads.retries);
        portsUnread.set({ source }, snapshot.mads.failedPorts);
      }
      targetUp.reset();
      targetDuration.reset();
      for (const t of snapshot?.targets ?? []) {
        const labels = { source, target: t.target };
        targetUp.set(labels, t.outcome === 'ok' ? 1 : 0);
        targetDuration.set(labels, t.durationSeconds);
        targetErrors.inc(labels, t.outcome === 'error' ? 1 : 0);
        targetTimeouts.inc(labels, t.outcome === 'timeout' ? 1 : 0);
      }
    },
  };
}
