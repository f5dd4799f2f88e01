import { readFileSync } from 'node:fs';
import { buildScenario } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { LinkIndex } from '../src/lib/link-index.ts';
import { portKey } from '../src/lib/port-rates.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import { PrometheusStore } from '../src/store/prometheus.ts';
import { rateQuery } from '../src/store/rate-window.ts';
import {
  fabscopeMapping,
  infinibandExporterMapping,
  nodeExporterMapping,
  type SeriesMapping,
} from '../src/store/series-mapping.ts';
import { topologyLookup } from '../src/store/series-mapping-config.ts';
import { linkDirectionStates } from './oracles/object-path.ts';

const fabric = buildScenario('ar-demo');
const topology = topologyLookup(fabric);
const guid = (name: string) => fabric.nodeByName.get(name)?.guid as string;
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** Scrapes `targets` (URL → exposition text at each step) twice, one second apart. */
async function twoScrapes(mapping: SeriesMapping, pages: (step: number) => Record<string, string>) {
  let now = 1_000_000;
  let step = 0;
  const store = new EmbeddedStore({
    targets: Object.keys(pages(0)),
    mapping,
    now: () => now,
    fetch: (async (url: string) =>
      new Response(pages(step)[String(url).split('?')[0] as string] ?? '', { status: 200 })) as typeof fetch,
  });
  await store.scrapeOnce();
  now += 1000;
  step = 1;
  await store.scrapeOnce();
  return Object.assign(await store.rates(), { store });
}

/** The recorded node_exporter page with the hfi1_0 data counters advanced by `bytes`. */
function nodeExporterPage(bytes: number): string {
  return fixture('node-exporter-hfi1.prom').replace(
    /^(node_infiniband_port_data_transmitted_bytes_total\{device="hfi1_0",port="1"\}) (\S+)$/m,
    (_m, series: string, v: string) => `${series} ${Number(v) + bytes}`,
  );
}

describe('node_exporter series as a source', () => {
  it('joins node_infiniband_* to the topology by instance host → node and port', async () => {
    const mapping = nodeExporterMapping(topology);
    const snapshot = await twoScrapes(mapping, (step) => ({
      'http://nodeA:9100/metrics': nodeExporterPage(step * 6.25e9),
    }));
    const rates = snapshot.ports.get(portKey(guid('nodeA'), 1));
    expect(rates?.transmitBytesPerSecond).toBeCloseTo(6.25e9, 0);
    expect(rates?.receiveBytesPerSecond).toBe(0);
    // interfaces are only used when mapped to a port
    expect(snapshot.ports.size).toBe(1);
  });

  it('maps instances and interfaces through FABSCOPE_NODE_EXPORTER_HOSTS and FABSCOPE_DEVICE_PORTS', async () => {
    const mapping = nodeExporterMapping(topology, {
      hosts: new Map([['10.0.0.7:9100', 'nodeB']]),
      devicePorts: new Map([['eth0', 1]]),
    });
    const page = (step: number) =>
      fixture('node-exporter-hfi1.prom')
        .split('\n')
        .filter((l) => !l.startsWith('node_infiniband'))
        .join('\n')
        .replace(/(device="eth0"\}) (\S+)/, (_m, s: string, v: string) => `${s} ${Number(v) + step * 1e9}`);
    const snapshot = await twoScrapes(mapping, (step) => ({ 'http://10.0.0.7:9100/metrics': page(step) }));
    expect(snapshot.ports.get(portKey(guid('nodeB'), 1))?.transmitBytesPerSecond).toBeCloseTo(1e9, 0);
  });

  it('gives the same host-link utilization as fabscope series carrying the same counters', async () => {
    const index = new LinkIndex(fabric);
    const hosts = ['nodeA', 'nodeB', 'nodeC', 'nodeD'];
    const tx = (h: number, step: number) => 1e12 + h * 1e9 + step * (h + 1) * 2.5e9;
    const fabscopePage = (step: number) =>
      [
        '# TYPE fabscope_port_data_transmitted_bytes_total counter',
        ...hosts.map(
          (h, i) =>
            `fabscope_port_data_transmitted_bytes_total{node_guid="${guid(h)}",port="1"} ${tx(i, step)}`,
        ),
      ].join('\n');
    const nodePage = (i: number, step: number) =>
      `# TYPE node_infiniband_port_data_transmitted_bytes_total counter\nnode_infiniband_port_data_transmitted_bytes_total{device="mlx5_0",port="1"} ${tx(i, step)}\n`;
    const own = await twoScrapes(fabscopeMapping, (step) => ({
      'http://collector:9466/metrics': fabscopePage(step),
    }));
    const viaNodeExporter = await twoScrapes(nodeExporterMapping(topology), (step) =>
      Object.fromEntries(hosts.map((h, i) => [`http://${h}:9100/metrics`, nodePage(i, step)])),
    );
    const hostLinks = (snapshot: typeof own) =>
      linkDirectionStates(index, snapshot)
        .filter((s) => s.kind === 'host' && hosts.includes(s.from.node))
        .map((s) => [s.id, s.utilization]);
    expect(hostLinks(viaNodeExporter)).toEqual(hostLinks(own));
    expect(hostLinks(own).every(([, u]) => typeof u === 'number' && u > 0)).toBe(true);
  });
});

describe('infiniband_exporter (treydock) series as a source', () => {
  it('keys switch ports by GUID, or by switch name through infiniband_switch_uplink_info', async () => {
    const mapping = infinibandExporterMapping(topology);
    const page = (step: number) =>
      fixture('infiniband-exporter.prom').replace(
        /^(infiniband_switch_port_transmit_data_bytes_total\{[^}]*\}) (\S+)$/gm,
        (_m, s: string, v: string) => `${s} ${Number(v) + step * 5e9}`,
      );
    const snapshot = await twoScrapes(mapping, (step) => ({
      'http://fabric-agent:9683/metrics': page(step),
    }));
    expect(snapshot.ports.get(portKey(guid('edge1'), 1))?.transmitBytesPerSecond).toBeCloseTo(5e9, 0);
    // 0x7cfe9003009ce5b0 is not a topology GUID: uplink_info names it edge2
    expect(snapshot.ports.get(portKey(guid('edge2'), 4))?.transmitBytesPerSecond).toBeCloseTo(5e9, 0);
  });
});

describe('Prometheus store with a series mapping', () => {
  it('asks for rates without reset periods, by every name of the mapping', async () => {
    expect(rateQuery(['a_total'], '5s')).toMatch(
      /^rate\(a_total\[5s\]\) unless resets\(a_total\[5s\]\) > 0 and /,
    );
    const queries: string[] = [];
    const store = new PrometheusStore({
      url: 'http://prom:9090',
      mapping: infinibandExporterMapping(topology),
      fetch: (async (url: URL) => {
        const query = url.searchParams.get('query') as string;
        queries.push(query);
        const result = query.startsWith('time()')
          ? [{ metric: { guid: '0x0011750101000000', port: '1' }, value: [0, '1'] }]
          : query.includes('uplink_info')
            ? []
            : [{ metric: { guid: '0x0011750101000000', port: '1' }, value: [0, '42'] }];
        return new Response(JSON.stringify({ status: 'success', data: { resultType: 'vector', result } }));
      }) as unknown as typeof fetch,
    });
    const snapshot = await store.rates();
    expect(snapshot.ports.get(portKey(guid('edge1'), 1))?.transmitBytesPerSecond).toBe(42);
    const sel =
      '{__name__=~"infiniband_switch_port_transmit_data_bytes_total|infiniband_hca_port_transmit_data_bytes_total"}';
    expect(queries).toContain(rateQuery([...sel.slice(12, -2).split('|')], '5s'));
    expect(rateQuery([...sel.slice(12, -2).split('|')], '5s')).toMatch(
      `rate(${sel}[5s]) unless resets(${sel}[5s]) > 0 and `,
    );
  });
});

describe('XmitWait tick length and link state, in both stores', () => {
  const edge1 = guid('edge1');
  const TICK = 6.4e-10;
  /** edge1 port 4 waits half the time (0.5 / 6.4e-10 ticks/s) and its link is `up`. */
  const page = (step: number, up: 0 | 1, withTick = true) =>
    [
      '# TYPE fabscope_port_data_transmitted_bytes_total counter',
      `fabscope_port_data_transmitted_bytes_total{node_guid="${edge1}",port="4"} ${1e12 + step * 12.4e9}`,
      '# TYPE fabscope_port_transmit_wait_total counter',
      `fabscope_port_transmit_wait_total{node_guid="${edge1}",port="4"} ${1e12 + (step * 0.5) / TICK}`,
      ...(withTick
        ? [
            '# TYPE fabscope_port_transmit_wait_tick_seconds gauge',
            `fabscope_port_transmit_wait_tick_seconds{node_guid="${edge1}",port="4"} ${TICK}`,
          ]
        : []),
      '# TYPE fabscope_port_link_up gauge',
      `fabscope_port_link_up{node_guid="${edge1}",port="4"} ${up}`,
    ].join('\n');

  it('embedded: reads the tick gauge and fabscope_port_link_up beside the counters', async () => {
    const snapshot = await twoScrapes(fabscopeMapping, (step) => ({
      'http://collector:9466/metrics': page(step, step === 0 ? 1 : 0),
    }));
    const port = snapshot.ports.get(portKey(edge1, 4));
    expect(port?.transmitWaitTickSeconds).toBe(TICK);
    expect(port?.linkUp).toBe(false); // the latest scrape wins
    const state = linkDirectionStates(new LinkIndex(fabric), snapshot).find(
      (s) => s.id === 'edge1/4->core2/1',
    );
    expect(state?.transmitWaitFraction).toBeCloseTo(0.5, 6);
    expect(state?.linkUp).toBe(false);
  });

  it('embedded: without the tick gauge the fraction is unknown, not 0', async () => {
    const snapshot = await twoScrapes(fabscopeMapping, (step) => ({
      'http://collector:9466/metrics': page(step, 1, false),
    }));
    const port = snapshot.ports.get(portKey(edge1, 4));
    expect(port?.transmitWaitTicksPerSecond).toBeCloseTo(0.5 / TICK, -3);
    expect(port?.transmitWaitTickSeconds).toBeNull();
    expect(port?.linkUp).toBe(true);
  });

  it('node_exporter: node_infiniband_state_id 4 (ACTIVE) is up, anything else down; its physical state read', async () => {
    const mapping = nodeExporterMapping(topology);
    const state = (step: number) =>
      `${nodeExporterPage(step * 1e9)}\n# TYPE node_infiniband_state_id gauge\nnode_infiniband_state_id{device="hfi1_0",port="1"} ${step === 0 ? 4 : 1}\n` +
      `# TYPE node_infiniband_physical_state_id gauge\nnode_infiniband_physical_state_id{device="hfi1_0",port="1"} ${step === 0 ? 5 : 2}\n`;
    const before = await twoScrapes(mapping, () => ({ 'http://nodeA:9100/metrics': state(0) }));
    expect(before.ports.get(portKey(guid('nodeA'), 1))?.linkUp).toBe(true);
    const after = await twoScrapes(mapping, (step) => ({ 'http://nodeA:9100/metrics': state(step) }));
    expect(after.ports.get(portKey(guid('nodeA'), 1))?.linkUp).toBe(false);
    expect(after.ports.get(portKey(guid('nodeA'), 1))?.transmitWaitTickSeconds).toBeNull();
    const [read] = await after.store.portTotals([portKey(guid('nodeA'), 1)]);
    expect(read?.physicalState?.code).toBe(2);
  });

  it('prometheus: queries the gauges and joins them to ports with fresh counters', async () => {
    const queries: string[] = [];
    const labels = { node_guid: edge1, port: '4' };
    const store = new PrometheusStore({
      url: 'http://prom:9090',
      // The raw path, as other sources read (fabscope's own live tick reads recorded series).
      live: 'raw',
      fetch: (async (url: URL) => {
        const query = url.searchParams.get('query') as string;
        queries.push(query);
        const result =
          query === 'fabscope_port_transmit_wait_tick_seconds'
            ? [{ metric: { __name__: query, ...labels }, value: [0, String(TICK)] }]
            : query === 'fabscope_port_link_up'
              ? [
                  { metric: { __name__: query, ...labels }, value: [0, '0'] },
                  // a port without fresh counters is left out
                  { metric: { __name__: query, node_guid: edge1, port: '3' }, value: [0, '1'] },
                ]
              : query.startsWith('time()')
                ? [{ metric: labels, value: [0, '1'] }]
                : query.includes('transmit_wait_total')
                  ? [{ metric: labels, value: [0, String(0.25 / TICK)] }]
                  : [{ metric: labels, value: [0, '0'] }];
        return new Response(JSON.stringify({ status: 'success', data: { resultType: 'vector', result } }));
      }) as unknown as typeof fetch,
    });
    const snapshot = await store.rates();
    expect(queries).toContain('fabscope_port_transmit_wait_tick_seconds');
    expect(queries).toContain('fabscope_port_link_up');
    const port = snapshot.ports.get(portKey(edge1, 4));
    expect(port).toMatchObject({ transmitWaitTickSeconds: TICK, linkUp: false });
    expect(snapshot.ports.has(portKey(edge1, 3))).toBe(false);
    const state = linkDirectionStates(new LinkIndex(fabric), snapshot).find(
      (s) => s.id === 'edge1/4->core2/1',
    );
    expect(state?.transmitWaitFraction).toBeCloseTo(0.25, 6);
  });
});
