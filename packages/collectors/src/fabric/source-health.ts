import { SOURCE_SERIES } from '@fabscope/contracts/metrics';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { FabricSnapshot } from './port-sample.ts';

/** The fabric agent's own series: how reading its source went, per read and per target. */
export class SourceHealth {
  private readonly source: string;
  private readonly sourceUp: Gauge;
  private readonly duration: Gauge;
  private readonly errors: Counter;
  private readonly targetUp: Gauge;
  private readonly targetDuration: Gauge;
  private readonly targetErrors: Counter;
  private readonly targetTimeouts: Counter;
  private readonly madsSent: Counter;
  private readonly madRetries: Counter;
  private readonly portsUnread: Gauge;

  constructor(registry: Registry, source: string) {
    this.source = source;
    const registers = [registry];
    const gauge = (name: string, help: string, labelNames = ['source']) =>
      new Gauge({ name, help, labelNames, registers });
    const counter = (name: string, help: string, labelNames = ['source']) =>
      new Counter({ name, help, labelNames, registers });
    const byTarget = ['source', 'target'];
    this.sourceUp = gauge(SOURCE_SERIES.up, '1 when the last read of the fabric source succeeded');
    this.duration = gauge(SOURCE_SERIES.readDuration, 'Time the last read of the fabric source took');
    this.errors = counter(SOURCE_SERIES.errors, 'Failed reads of the fabric source');
    this.errors.inc({ source }, 0);
    this.targetUp = gauge(
      'fabscope_fabric_target_up',
      '1 when the last query of this target (switch or port) succeeded',
      byTarget,
    );
    this.targetDuration = gauge(
      'fabscope_fabric_target_collect_duration_seconds',
      'Time the last query of this target took',
      byTarget,
    );
    this.targetErrors = counter(
      'fabscope_fabric_target_errors_total',
      'Queries of this target that failed',
      byTarget,
    );
    this.targetTimeouts = counter(
      'fabscope_fabric_target_timeouts_total',
      'Queries of this target that timed out',
      byTarget,
    );
    this.madsSent = counter(
      'fabscope_fabric_mads_sent_total',
      'Management datagrams sent to read the fabric (InfiniBand: PortInfo, PortCounters, PortCountersExtended)',
    );
    this.madRetries = counter(
      'fabscope_fabric_mad_retries_total',
      'MADs sent again after no answer within the timeout (what perfquery reports as "_do_madrpc: recv failed")',
    );
    this.portsUnread = gauge(
      'fabscope_fabric_ports_unread',
      'Ports of the last read with an attribute that did not answer after every retry (their counters are absent, not 0)',
    );
  }

  readSucceeded(): void {
    this.sourceUp.set({ source: this.source }, 1);
  }

  readFailed(): void {
    this.sourceUp.set({ source: this.source }, 0);
    this.errors.inc({ source: this.source });
  }

  /** After a read (null when it failed): its duration, its MADs and how each target went. */
  readDone(durationSeconds: number, snapshot: FabricSnapshot | null): void {
    const source = this.source;
    this.duration.set({ source }, durationSeconds);
    if (snapshot?.mads) {
      this.madsSent.inc({ source }, snapshot.mads.sent);
      this.madRetries.inc({ source }, snapshot.mads.retries);
      this.portsUnread.set({ source }, snapshot.mads.failedPorts);
    }
    this.targetUp.reset();
    this.targetDuration.reset();
    for (const t of snapshot?.targets ?? []) {
      const labels = { source, target: t.target };
      this.targetUp.set(labels, t.outcome === 'ok' ? 1 : 0);
      this.targetDuration.set(labels, t.durationSeconds);
      this.targetErrors.inc(labels, t.outcome === 'error' ? 1 : 0);
      this.targetTimeouts.inc(labels, t.outcome === 'timeout' ? 1 : 0);
    }
  }
}
