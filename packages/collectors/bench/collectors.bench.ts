import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchReporter, median, NODE_EXPORTER, startNodeExporter } from '@fabscope/test-support';
import {
  createFabricRegistry,
  createHostCollector,
  type FabricSnapshot,
  type PortSample,
  startMetricsServer,
} from '../src/index.ts';

const FIXTURES = fileURLToPath(new URL('../test/fixtures/', import.meta.url));
const SYSFS = `${FIXTURES}sysfs-mixed`; // 4 devices: hfi1_0, iwp0, mlx5_0, qib0
const PROCFS = `${FIXTURES}procfs-mixed`;
const bench = benchReporter();
const { report } = bench;

async function timeHttp(url: string, runs: number): Promise<number> {
  for (let i = 0; i < 20; i++) await (await fetch(url)).text(); // warm up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await (await fetch(url)).text();
    times.push(performance.now() - started);
  }
  return median(times);
}

// --- host agent -------------------------------------------------------------------------------
const host = createHostCollector({ sysfs: SYSFS, procfs: PROCFS });
for (let i = 0; i < 50; i++) await host.scrape();
const scrapeTimes: number[] = [];
for (let i = 0; i < 300; i++) {
  const started = performance.now();
  await host.scrape();
  scrapeTimes.push(performance.now() - started);
}
report('host agent scrape, 4 devices (median)', median(scrapeTimes), 'ms', 5, 3);

if (existsSync(NODE_EXPORTER)) {
  const server = await startMetricsServer(host.scrape);
  const ours = await timeHttp(server.url, 200);
  await server.close();
  const exporter = await startNodeExporter({
    sysfs: SYSFS,
    procfs: PROCFS,
    collectors: ['infiniband', 'netdev', 'netclass', 'cpu', 'meminfo'],
  });
  try {
    const theirs = await timeHttp(exporter.url, 200);
    console.log(
      `host agent HTTP scrape (median): ${ours.toFixed(3)} ms; node_exporter 1.5 same tree: ${theirs.toFixed(3)} ms`,
    );
    report('host agent / node_exporter scrape time ratio', ours / theirs, '×', 1, 2);
  } finally {
    await exporter.stop();
  }
} else {
  console.log('host agent / node_exporter ratio: skipped (prometheus-node-exporter not installed)');
}

// --- fabric agent -----------------------------------------------------------------------------
/** A fat-tree port list: hosts on edge switches, then switch-to-switch ports, both cable ends named. */
function fatTreePorts(hosts: number, switchPorts: number): PortSample[] {
  const ports: PortSample[] = [];
  const guid = (kind: number, n: number) =>
    `0x001175${kind.toString(16).padStart(2, '0')}${n.toString(16).padStart(8, '0')}`;
  const sample = (
    i: number,
    node: string,
    nodeGuid: string,
    type: PortSample['nodeType'],
    port: number,
    remote: PortSample['remote'],
  ): PortSample => ({
    nodeGuid,
    nodeName: node,
    nodeType: type,
    portNumber: port,
    lid: i + 1,
    rateBytesPerSecond: 12.5e9,
    linkUp: true,
    remote,
    transmitBytes: 123_456_789_012 + i * 4096,
    receiveBytes: 98_765_432_109 + i * 8192,
    transmitPackets: 456_789_012 + i,
    receivePackets: 345_678_901 + i,
    transmitWaitTicks: i * 17,
  });
  for (let h = 0; h < hosts; h++) {
    const edge = Math.floor(h / 24);
    ports.push(
      sample(ports.length, `node${h}`, guid(0, h), 'host', 1, {
        nodeGuid: guid(1, edge),
        nodeName: `edge${edge}`,
        portNumber: (h % 24) + 1,
      }),
    );
  }
  for (let s = 0; s < switchPorts; s++) {
    const sw = Math.floor(s / 48);
    const peer = (sw * 7 + 3) % Math.max(1, Math.floor(switchPorts / 48));
    ports.push(
      sample(ports.length, `switch${sw}`, guid(1, sw), 'switch', (s % 48) + 1, {
        nodeGuid: guid(1, peer),
        nodeName: `switch${peer}`,
        portNumber: ((s * 5) % 48) + 1,
      }),
    );
  }
  return ports;
}

function fixedSource(snapshot: FabricSnapshot) {
  return { name: 'bench', read: async () => snapshot };
}

/** Writes chunks into one reusable buffer, as a socket write would copy them. */
const sinkBuffer = Buffer.allocUnsafe(1024 * 1024);
function drain(chunks: Iterable<string | Uint8Array>): number {
  let bytes = 0;
  for (const chunk of chunks) {
    if (typeof chunk === 'string') bytes += sinkBuffer.write(chunk.slice(0, sinkBuffer.length), 'latin1');
    else bytes += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).copy(sinkBuffer);
  }
  return bytes;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function fabricRun(ports: PortSample[], runs: number) {
  // Stamped, as the emulator's snapshots are (port-sample.ts countersReadAtMs): the realistic path.
  const snapshot: FabricSnapshot = {
    fabric: 'bench',
    fabricType: 'omnipath',
    ports,
    countersReadAtMs: Date.now(),
  };
  const { scrapeChunks } = createFabricRegistry({ source: fixedSource(snapshot) });
  drain(await scrapeChunks()); // warm up
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    gc();
    const started = performance.now();
    bytes = drain(await scrapeChunks());
    times.push(performance.now() - started);
  }
  // every port has all 7 series (data, packets, XmitWait, rate, link state)
  return { ms: median(times), bytes, series: ports.length * 7 };
}

const small = await fabricRun(fatTreePorts(1152, 72 * 48), 15);
report(`fabric exposition, fat-tree-1152 size (4608 ports, ${small.series} series)`, small.ms, 'ms', 50, 1);

gc();
const big = await fabricRun(fatTreePorts(27648, 2880 * 48), 3);
const perSeriesUs = (big.ms * 1000) / big.series;
console.log(
  `fabric exposition, fat-tree-27648 size (165888 ports): ${big.ms.toFixed(0)} ms, ${big.series} series, ${(big.bytes / 1e6).toFixed(0)} MB`,
);
report('fabric exposition per series, fat-tree-27648 size', perSeriesUs, 'µs', 1, 3);
report('peak RSS', process.resourceUsage().maxRSS / 1024, 'MiB', 500, 0);

process.exit(bench.failed === 0 ? 0 : 1);
