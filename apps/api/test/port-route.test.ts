import type { OpticReading } from '@fabscope/contracts';
import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portKey } from '../src/lib/port-rates.ts';
import {
  PHYSICAL_STATE_NOT_READ,
  TOTALS_NEVER_READ,
  TOTALS_NOT_KEPT,
} from '../src/routes/port/port-totals.ts';
import type { MetricsStore, PortTotals } from '../src/store/types.ts';
import { buildTestApp } from './helper.ts';

describe('GET /port: a node’s ports, or one port in full', () => {
  const fabric = buildScenario('ar-demo');
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  /** What the live source read of the ports' transceivers: none unless a test says. */
  let optics: Map<string, readonly OpticReading[]> = new Map();
  beforeAll(async () => {
    app = await buildTestApp({ fabric, portOptics: (guid, port) => optics.get(`${guid}/${port}`) });
  });
  afterAll(async () => {
    await app.close();
  });
  const get = async (query: string) => {
    const res = await app.inject(`/api/v1/port?${query}`);
    return { status: res.statusCode, body: res.json() };
  };

  it('lists a switch’s cabled ports with their neighbours, in port order', async () => {
    const { status, body } = await get('node=edge1');
    expect(status).toBe(200);
    expect(body.node).toMatchObject({ name: 'edge1', type: 'switch', tier: 1 });
    expect(
      body.ports.map((p: { port: number; neighbour: { node: string; port: number } }) => [
        p.port,
        `${p.neighbour.node}/${p.neighbour.port}`,
      ]),
    ).toEqual([
      [1, 'nodeA/1'],
      [2, 'nodeB/1'],
      [3, 'core1/1'],
      [4, 'core2/1'],
    ]);
  });

  it('one port: its directions out and in (unknown with no data yet, never made up)', async () => {
    const { body } = await get('node=edge1&port=4');
    expect(body.ports).toHaveLength(1);
    const [port] = body.ports;
    expect(port).toMatchObject({
      port: 4,
      neighbour: { node: 'core2', port: 1 },
      kind: 'isl',
      rateGbps: 100,
    });
    expect(port.out).toMatchObject({ id: 'edge1/4->core2/1', utilization: null, bytesPerSecond: null });
    expect(port.in).toMatchObject({ id: 'core2/1->edge1/4', utilization: null });
    expect(port.linkUp).toBeNull();
  });

  it('finds the node by GUID and by LID as the route does; says what is not there', async () => {
    const edge1 = fabric.nodeByName.get('edge1');
    expect((await get(`node=${edge1?.guid}`)).body.node.name).toBe('edge1');
    expect((await get(`node=lid:${edge1?.lid}`)).body.node.name).toBe('edge1');
    expect(await get('node=nowhere')).toMatchObject({ status: 404 });
    expect((await get('node=edge1&port=40')).body.message).toBe('edge1 has no cabled port 40');
    expect((await get('node=edge1&port=999')).status).toBe(400);
  });

  it("gives a port's transceiver optics where the live source read them, and no optics field elsewhere", async () => {
    const edge1 = fabric.nodeByName.get('edge1');
    const rx = {
      sensor: 'rxPower',
      description: 'DOM RX Power Sensor for Ethernet50',
      value: 0.0004,
    } as const;
    const read = [
      { sensor: 'temperature', description: 'DOM Temperature Sensor for Ethernet50', value: 26 },
      { ...rx, dbm: 10 * Math.log10(0.0004) },
      { ...rx, value: null, dbm: null, unknown: 'the agent says the sensor is unavailable' },
    ] as const;
    optics = new Map([[`${edge1?.guid}/3`, read]]);
    const { body } = await get('node=edge1');
    expect(body.ports.find((p: { port: number }) => p.port === 3).optics).toEqual(read);
    expect(body.ports.find((p: { port: number }) => p.port === 4)).not.toHaveProperty('optics');
    optics = new Map();
    expect((await get('node=edge1&port=3')).body.ports[0]).not.toHaveProperty('optics');
  });
});

describe('GET /port: totals since the last clear beside the rates', () => {
  const fabric = buildScenario('ar-demo');
  const edge1 = fabric.nodeByName.get('edge1');
  const READ_MS = Date.parse('2026-11-29T12:00:00.000Z');
  const read = new Map<string, PortTotals>([
    [
      portKey(edge1?.guid ?? '', 4),
      {
        timeMs: READ_MS,
        values: { transmitBytes: 5e12, receiveBytes: 4e12, receiveErrors: 3 },
        physicalState: { code: 2, timeMs: READ_MS },
      },
    ],
    [
      portKey(edge1?.guid ?? '', 3),
      { timeMs: READ_MS, values: {}, physicalState: { code: 9, timeMs: READ_MS } },
    ],
  ]);
  const rates = async () => ({ timeMs: READ_MS, ok: true, lastSampleAgeSeconds: null, ports: new Map() });
  const withTotals: MetricsStore = {
    kind: 'embedded',
    rates,
    portTotals: async (keys) => keys.map((k) => read.get(k) ?? null),
    close: async () => {},
  };
  const ratesOnly: MetricsStore = { kind: 'prometheus', rates, close: async () => {} };
  const portOf = async (store: MetricsStore, query: string) => {
    const app = await buildTestApp({ fabric, store });
    try {
      return (await app.inject(`/api/v1/port?${query}`)).json().ports;
    } finally {
      await app.close();
    }
  };

  it("gives the port's counters as last read, each absent one null (never 0), and its fabric kind", async () => {
    const [port] = await portOf(withTotals, 'node=edge1&port=4');
    expect(port.fabricType).toBe('omnipath');
    expect(port.totals.time).toBe('2026-11-29T12:00:00.000Z');
    expect(port.totals.counters).toMatchObject({
      transmitBytes: 5e12,
      receiveBytes: 4e12,
      receiveErrors: 3,
      transmitWait: null,
      symbolErrors: null,
    });
    expect(port.totalsUnknown).toBeUndefined();
    // PortPhysicalState 2, named as ibportstate prints it.
    expect(port.physicalState).toBe('Polling');
    expect(port.physicalStateUnknown).toBeUndefined();
    // No source reads optics here: the port has no optics field, rather than an empty one.
    expect(port).not.toHaveProperty('optics');
  });

  it('says why when the port was never read, or the store keeps rates only', async () => {
    const ports = await portOf(withTotals, 'node=edge1');
    expect(ports.find((p: { port: number }) => p.port === 1)).toMatchObject({
      totals: null,
      totalsUnknown: TOTALS_NEVER_READ,
      physicalState: null,
      physicalStateUnknown: PHYSICAL_STATE_NOT_READ,
    });
    // A code IBA does not define is unknown, never a name made up for it.
    expect(ports.find((p: { port: number }) => p.port === 3)).toMatchObject({
      totals: null,
      physicalState: null,
      physicalStateUnknown: expect.stringMatching(/PortPhysicalState 9/),
    });
    const [port] = await portOf(ratesOnly, 'node=edge1&port=4');
    expect(port).toMatchObject({ totals: null, totalsUnknown: TOTALS_NOT_KEPT });
    // A TSDB that does not answer in time: the page's rates stand, its readings unknown and why.
    const silent: MetricsStore = {
      kind: 'prometheus',
      rates,
      portTotals: async () => {
        throw new Error('PromQL /api/v1/query not answered within 5 s');
      },
      close: async () => {},
    };
    const [late] = await portOf(silent, 'node=edge1&port=4');
    expect(late).toMatchObject({
      totals: null,
      totalsUnknown: 'the store did not answer: PromQL /api/v1/query not answered within 5 s',
      physicalState: null,
    });
  });
});
