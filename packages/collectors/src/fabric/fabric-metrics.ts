import { Counter, Gauge, Registry } from 'prom-client';
import type { FabricSnapshot, FabricSource, PortSample } from './port-sample.ts';

// Every port series names both ends of its cable, so a series is a cable end, not an anonymous port.
const PORT_LABELS = [
  'fabric',
  'node_guid',
  'node_name',
  'node_type',
  'port',
  'remote_node_guid',
  'remote_node_name',
  'remote_port',
] as const;

type PortLabels = Record<(typeof PORT_LABELS)[number], string>;

function portLabels(fabric: string, p: PortSample): PortLabels {
  return {
    fabric,
    node_guid: p.nodeGuid,
    node_name: p.nodeName,
    node_type: p.nodeType,
    port: String(p.portNumber),
    remote_node_guid: p.remote?.nodeGuid ?? '',
    remote_node_name: p.remote?.nodeName ?? '',
    remote_port: p.remote ? String(p.remote.portNumber) : '',
  };
}

export interface FabricCollectorOptions {
  source: FabricSource;
  timeoutMs?: number;
}

/**
 * The fabric agent's registry. Counters are read from the source once per scrape, inside the
 * scrape, and exposed as raw monotonic totals in bytes and packets: rates are left to the store.
 * When the source fails, port series are absent (so they go stale) and `fabscope_fabric_source_up` is 0.
 */
export function createFabricRegistry(options: FabricCollectorOptions): {
  registry: Registry;
  scrape: () => Promise<string>;
} {
  const { source, timeoutMs = 10_000 } = options;
  const registry = new Registry();
  let snapshot: FabricSnapshot | null = null;

  const counter = (name: string, help: string, value: (p: PortSample) => number) =>
    new Counter({
      name,
      help,
      labelNames: PORT_LABELS,
      registers: [registry],
      collect() {
        this.reset();
        if (!snapshot) return;
        for (const p of snapshot.ports) this.inc(portLabels(snapshot.fabric, p), value(p));
      },
    });
  counter('fabscope_port_data_transmitted_bytes_total', 'Data octets transmitted on the port', (p) => p.transmitBytes);
  counter('fabscope_port_data_received_bytes_total', 'Data octets received on the port', (p) => p.receiveBytes);
  counter('fabscope_port_packets_transmitted_total', 'Packets transmitted on the port', (p) => p.transmitPackets);
  counter('fabscope_port_packets_received_total', 'Packets received on the port', (p) => p.receivePackets);
  counter(
    'fabscope_port_transmit_wait_total',
    'Ticks during which the port had data to transmit but no flow-control credit (XmitWait)',
    (p) => p.transmitWaitTicks,
  );
  new Gauge({
    name: 'fabscope_port_rate_bytes_per_second',
    help: 'Data rate of the port link',
    labelNames: PORT_LABELS,
    registers: [registry],
    collect() {
      this.reset();
      if (!snapshot) return;
      for (const p of snapshot.ports) this.set(portLabels(snapshot.fabric, p), p.rateBytesPerSecond);
    },
  });
  new Gauge({
    name: 'fabscope_port_link_up',
    help: '1 when the port link is active, 0 when it is down',
    labelNames: PORT_LABELS,
    registers: [registry],
    collect() {
      this.reset();
      if (!snapshot) return;
      for (const p of snapshot.ports) this.set(portLabels(snapshot.fabric, p), p.linkUp ? 1 : 0);
    },
  });
  const sourceUp = new Gauge({
    name: 'fabscope_fabric_source_up',
    help: '1 when the last read of the fabric source succeeded',
    labelNames: ['source'],
    registers: [registry],
  });
  const duration = new Gauge({
    name: 'fabscope_fabric_source_read_duration_seconds',
    help: 'Time the last read of the fabric source took',
    labelNames: ['source'],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'fabscope_fabric_source_errors_total',
    help: 'Failed reads of the fabric source',
    labelNames: ['source'],
    registers: [registry],
  });
  errors.inc({ source: source.name }, 0);

  async function scrape(): Promise<string> {
    const started = performance.now();
    try {
      snapshot = await source.read(AbortSignal.timeout(timeoutMs));
      sourceUp.set({ source: source.name }, 1);
    } catch {
      snapshot = null;
      sourceUp.set({ source: source.name }, 0);
      errors.inc({ source: source.name });
    }
    duration.set({ source: source.name }, (performance.now() - started) / 1000);
    try {
      return await registry.metrics();
    } finally {
      snapshot = null;
    }
  }
  return { registry, scrape };
}
