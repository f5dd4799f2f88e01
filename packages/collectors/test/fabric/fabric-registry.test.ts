import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFabricRegistry,
  EDGE_FAMILIES,
  emulatorSource,
  portSamplesFromEmulator,
  startMetricsServer,
} from '../../src/index.ts';

// A /v1/ports answer in the emulator's documented shape (docs/architecture.md): Omni-Path flits.
const portsDocument = {
  fabric: 'ar-demo',
  fabricType: 'omnipath',
  timeMs: 1_700_000_000_000,
  dataUnitBytes: 8,
  ports: [
    {
      nodeGuid: '0x0011750101000000',
      nodeName: 'edge1',
      nodeType: 'switch',
      portNumber: 4,
      lid: 6,
      rateGbps: 100,
      linkState: 'active',
      remote: { nodeGuid: '0x0011750101000003', nodeName: 'core2', portNumber: 1 },
      counters: {
        XmitData: '1500000000',
        RcvData: '7',
        XmitPkts: '1464843',
        RcvPkts: '1',
        XmitWait: '42',
        SymbolErrors: '12',
        LinkErrorRecovery: '1',
        LinkDowned: '2',
        RcvErrors: '3',
        XmitDiscards: '4',
      },
    },
    {
      nodeGuid: '0x0011750100000000',
      nodeName: 'nodeA',
      nodeType: 'host',
      portNumber: 1,
      lid: 1,
      rateGbps: 100,
      linkState: 'down',
      remote: null,
      counters: {
        XmitData: '18446744073709551615',
        RcvData: '0',
        XmitPkts: '0',
        RcvPkts: '0',
        XmitWait: '0',
      },
    },
  ],
};

describe('emulator source', () => {
  it('converts flits to bytes exactly and keeps both cable ends', () => {
    const snapshot = portSamplesFromEmulator(portsDocument as never);
    const edge = snapshot.ports[0];
    expect(edge?.transmitBytes).toBe(12_000_000_000);
    expect(edge?.receiveBytes).toBe(56);
    expect(edge?.rateBytesPerSecond).toBe(12.5e9);
    expect(edge?.remote?.nodeName).toBe('core2');
    expect(snapshot.ports[1]?.linkUp).toBe(false);
    expect(snapshot.ports[1]?.transmitBytes).toBe(Number((2n ** 64n - 1n) * 8n));
  });

  it('stamps the counters with the emulator’s clock when it runs on wall time, the gauges never', async () => {
    const readAtMs = Date.now() - 250;
    const doc = { ...portsDocument, timeMs: readAtMs };
    const live = portSamplesFromEmulator(doc as never, Date.now());
    expect(live.countersReadAtMs).toBe(readAtMs);
    const text = await createFabricRegistry({
      source: { name: 'live', read: async () => live },
    }).scrape();
    expect(text).toMatch(
      new RegExp(
        `fabscope_port_data_transmitted_bytes_total\\{[^}]*node_guid="0x0011750101000000"[^}]*\\} 12000000000 ${readAtMs}\n`,
      ),
    );
    expect(text).toMatch(new RegExp(`fabscope_link_data_received_bytes_total\\{[^}]*\\} 56 ${readAtMs}\n`));
    expect(text).toMatch(/fabscope_port_link_up\{[^}]*node_guid="0x0011750101000000"[^}]*\} 1\n/);
    // The emulator reads no PortInfo: no physical state series, never one made up from the link state.
    expect(text).not.toContain('fabscope_port_physical_state{');
    expect(text).toMatch(
      /fabscope_port_rate_bytes_per_second\{[^}]*node_guid="0x0011750101000000"[^}]*\} 12500000000\n/,
    );
    // A clock stepped by hand (tests from t = 0), or far from now: the scraper stamps them.
    expect(portSamplesFromEmulator(portsDocument as never, Date.now()).countersReadAtMs).toBeUndefined();
    expect(
      portSamplesFromEmulator({ ...portsDocument, timeMs: 0 } as never, Date.now()).countersReadAtMs,
    ).toBeUndefined();
  });

  it('rejects an answer without ports', () => {
    expect(() => portSamplesFromEmulator({ dataUnitBytes: 8 } as never)).toThrow(/lacks ports/);
  });
});

describe('fabric collector over HTTP', () => {
  let upstreamUrl = '';
  let failing = false;
  let reads = 0;
  const upstream = createServer((req, res) => {
    reads++;
    // The source asks for the Arrow form; an emulator answering JSON is read as JSON.
    if (failing || !req.url?.startsWith('/v1/ports')) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(portsDocument));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('reads the source at scrape time and exposes counters in bytes with both cable ends', async () => {
    const { scrape } = createFabricRegistry({ source: emulatorSource(upstreamUrl) });
    const server = await startMetricsServer(scrape);
    try {
      const before = reads;
      const text = await (await fetch(server.url)).text();
      expect(reads).toBe(before + 1);
      expect(text).toContain('# TYPE fabscope_port_data_transmitted_bytes_total counter');
      expect(text).toMatch(
        /fabscope_port_data_transmitted_bytes_total\{fabric="ar-demo",node_guid="0x0011750101000000",port="4",node_type="switch"\} 12000000000/,
      );
      // The names and the far end once per port, in its info series (core2 reports no type here).
      expect(text).toMatch(
        /fabscope_port_info\{fabric="ar-demo",node_guid="0x0011750101000000",node_name="edge1",node_type="switch",port="4",remote_node_guid="0x0011750101000003",remote_node_name="core2",remote_node_type="",remote_port="1"\} 1\n/,
      );
      expect(text).toMatch(
        /fabscope_port_transmit_wait_total\{[^}]*node_guid="0x0011750101000000"[^}]*\} 42/,
      );
      expect(text).toMatch(/fabscope_port_link_up\{[^}]*node_guid="0x0011750100000000"[^}]*\} 0/);
      // Error counters as reported; a port whose source lacks them has no series (not 0).
      expect(text).toMatch(
        /fabscope_port_symbol_error_total\{[^}]*node_guid="0x0011750101000000"[^}]*\} 12\n/,
      );
      expect(text).toMatch(
        /fabscope_port_link_error_recovery_total\{[^}]*node_guid="0x0011750101000000"[^}]*\} 1\n/,
      );
      expect(text).toMatch(/fabscope_port_link_downed_total\{[^}]*node_guid="0x0011750101000000"[^}]*\} 2\n/);
      expect(text).toMatch(
        /fabscope_port_errors_received_total\{[^}]*node_guid="0x0011750101000000"[^}]*\} 3\n/,
      );
      expect(text).toMatch(
        /fabscope_port_discards_transmitted_total\{[^}]*node_guid="0x0011750101000000"[^}]*\} 4\n/,
      );
      expect(text).not.toMatch(/fabscope_port_symbol_error_total\{[^}]*node_guid="0x0011750100000000"/);
      // One XmitWait tick on 100 Gb/s Omni-Path is one flit time: 64 bits / 1e11 b/s = 0.64 ns.
      expect(text).toMatch(
        /fabscope_port_transmit_wait_tick_seconds\{[^}]*node_guid="0x0011750101000000"[^}]*\} 6\.4e-10\n/,
      );
      expect(text).toMatch(/fabscope_fabric_source_up\{source="[^"]+"\} 1/);
      expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('serves only the families named in name[], in chunks, the same bytes as the whole scrape', async () => {
    const registry = createFabricRegistry({ source: emulatorSource(upstreamUrl) });
    const server = await startMetricsServer(registry.scrapeChunks);
    try {
      const all = await (await fetch(server.url)).text();
      // The rates at the edge come from two reads: the first scrape has none, the second has them,
      // stamped with its own read's time; the rest is the same read after read.
      const timeless = (text: string) =>
        text
          .replace(/(_read_duration_seconds\{[^}]*\}) \S+/, '$1')
          .split('\n')
          .filter((l) => !EDGE_FAMILIES.some((f) => l.startsWith(`${f.name}{`) || l.includes(` ${f.name} `)))
          .join('\n');
      expect(timeless(all)).toBe(timeless(await registry.scrape()));
      const some = await (
        await fetch(`${server.url}?name[]=fabscope_port_link_up&name[]=fabscope_fabric_source_up`)
      ).text();
      const names = new Set(
        some
          .split('\n')
          .filter((l) => l && !l.startsWith('#'))
          .map((l) => l.split(/[{ ]/)[0]),
      );
      expect(names).toEqual(new Set(['fabscope_port_link_up', 'fabscope_fabric_source_up']));
      const lines = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`));
      expect(lines(some, 'fabscope_port_link_up')).toEqual(lines(all, 'fabscope_port_link_up'));
    } finally {
      await server.close();
    }
  });

  it('drops port series (never zeros) and counts an error when the source fails', async () => {
    const { scrape } = createFabricRegistry({ source: emulatorSource(upstreamUrl) });
    failing = true;
    try {
      const text = await scrape();
      expect(text).not.toMatch(/^fabscope_port_data_transmitted_bytes_total\{/m);
      expect(text).toMatch(/fabscope_fabric_source_up\{source="[^"]+"\} 0/);
      expect(text).toMatch(/fabscope_fabric_source_errors_total\{source="[^"]+"\} 1/);
    } finally {
      failing = false;
    }
  });
});
