import { tableFromIPC } from '@uwdata/flechette';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrowFamilies } from '../../src/exposition/port-arrow.ts';
import { PORT_FAMILIES } from '../../src/exposition/port-exposition.ts';
import { createFabricRegistry } from '../../src/fabric/fabric-registry.ts';
import type { FabricSnapshot, PortSample } from '../../src/fabric/port-sample.ts';
import { accepts } from '../../src/metrics-server.ts';
import { samples } from '../helpers.ts';

const guid = fc
  .bigInt({ min: 1n, max: (1n << 64n) - 1n })
  .map((v) => `0x${v.toString(16).padStart(16, '0')}`);
/** A counter or gauge as sources give them: whole numbers up to 2^53, fractions, unknown. */
const reading = fc.oneof(
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ min: 0, max: 1e18, noNaN: true }),
  fc.constant(Number.NaN),
);
const port: fc.Arbitrary<Omit<PortSample, 'nodeGuid' | 'portNumber'>> = fc.record({
  nodeName: fc.string({ maxLength: 8 }),
  nodeType: fc.constantFrom('host', 'switch', 'router'),
  lid: fc.integer({ min: 1, max: 0xbfff }),
  rateBytesPerSecond: reading,
  linkUp: fc.boolean(),
  physicalState: fc.option(fc.integer({ min: 1, max: 7 }), { nil: undefined }),
  remote: fc.option(
    fc.record({
      nodeGuid: guid,
      nodeName: fc.string({ maxLength: 8 }),
      portNumber: fc.integer({ min: 1, max: 64 }),
    }),
  ),
  transmitBytes: reading,
  receiveBytes: reading,
  transmitPackets: reading,
  receivePackets: reading,
  transmitWaitTicks: reading,
  transmitWaitTickSeconds: reading,
  errors: fc.option(fc.record({ symbolErrors: reading, linkDowned: reading }), { nil: undefined }),
}) as never;
const snapshot: fc.Arbitrary<FabricSnapshot> = fc
  .uniqueArray(fc.tuple(guid, fc.integer({ min: 1, max: 64 })), {
    maxLength: 30,
    selector: ([g, p]) => `${g}/${p}`,
  })
  .chain((keys) =>
    fc.record({
      fabric: fc.constant('fabric-a'),
      fabricType: fc.constant('infiniband'),
      ports: fc.tuple(
        ...keys.map(([nodeGuid, portNumber]) => port.map((p) => ({ ...p, nodeGuid, portNumber }))),
      ),
      countersReadAtMs: fc.option(fc.integer({ min: 1e12, max: 2e12 }), { nil: undefined }),
    }),
  ) as never;

/** The port-keyed families the embedded store reads. */
const NAMES = new Set(PORT_FAMILIES.filter((f) => f.labelledBy === undefined).map((f) => f.name));

describe("the fabric agent's Arrow form", () => {
  it('carries, per port and family, exactly the values the text has (NaN where the text has none)', async () => {
    await fc.assert(
      // Two reads in turn by one agent: the key columns it keeps are those of the ports read.
      fc.asyncProperty(snapshot, snapshot, async (first, second) => {
        let snap = first;
        const source = { name: 'arb', read: async () => snap };
        const registry = createFabricRegistry({ source });
        for (const next of [first, second, first]) {
          snap = next;
          const text = samples(await registry.scrape({ names: NAMES }));
          const answer = await registry.answer({ names: NAMES, arrow: true });
          if (!('mediaType' in answer)) throw new Error('no Arrow answer');
          expect(answer.mediaType).toBe('application/vnd.apache.arrow.stream');
          const table = tableFromIPC(answer.body);
          expect(table.numRows).toBe(snap.ports.length);
          expect(table.schema.metadata?.get('ports')).toBe(String(snap.ports.length));
          expect(table.schema.metadata?.get('countersReadAtMs')).toBe(
            snap.countersReadAtMs === undefined ? undefined : String(snap.countersReadAtMs),
          );
          const guids = table.getChild('node_guid').toArray() as string[];
          const ports = table.getChild('port').toArray() as ArrayLike<number>;
          const row = new Map(Array.from(guids, (g, i) => [`${g}/${ports[i]}`, i]));
          for (const name of NAMES) {
            const column = table.getChild(name).toArray() as Float64Array;
            const inText = new Map(
              text
                .filter((s) => s.name === name)
                .map((s) => [`${s.labels.node_guid}/${s.labels.port}`, s.value]),
            );
            for (const [key, i] of row) {
              const value = column[i] as number;
              if (Number.isNaN(value)) expect(inText.has(key), `${name} ${key}`).toBe(false);
              else expect(inText.get(key), `${name} ${key}`).toBe(value);
            }
            expect(inText.size).toBe(Array.from(column).filter((v) => !Number.isNaN(v)).length);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('answers text where a family asked for is not keyed by the port, or none is named', () => {
    expect(arrowFamilies(new Set(['fabscope_port_data_transmitted_bytes_total']))).toHaveLength(1);
    expect(arrowFamilies(new Set(['fabscope_port_info']))).toBeNull();
    expect(arrowFamilies(new Set(['fabscope_link_data_received_bytes_total']))).toBeNull();
    expect(arrowFamilies(new Set(['fabscope_fabric_source_up']))).toBeNull();
    expect(arrowFamilies(undefined)).toBeNull();
  });

  it('reads Accept as HTTP does: listed, with a q above 0', () => {
    const arrow = 'application/vnd.apache.arrow.stream';
    expect(accepts(`${arrow}, text/plain;version=0.0.4;q=0.5`, arrow)).toBe(true);
    expect(accepts('text/plain', arrow)).toBe(false);
    expect(accepts(`${arrow};q=0`, arrow)).toBe(false);
    expect(accepts(undefined, arrow)).toBe(false);
  });
});

describe('rates at the edge beside the Arrow form', () => {
  /** Two cabled switch ports whose counters grow by `i`-dependent amounts, read a second apart. */
  const reads: FabricSnapshot[] = Array.from({ length: 6 }, (_, i) => {
    const port = (guid: string, far: string, k: number): PortSample => ({
      nodeGuid: guid,
      nodeName: guid,
      nodeType: 'switch',
      portNumber: 1,
      lid: k,
      rateBytesPerSecond: 12.5e9,
      linkUp: true,
      remote: { nodeGuid: far, nodeName: far, portNumber: 1, nodeType: 'switch' },
      transmitBytes: 1e9 * k * i * (i + 1),
      receiveBytes: 1e9 * (3 - k) * i * (i + 1),
      transmitPackets: 1e6 * i * i,
      receivePackets: 1e6 * i * i,
      transmitWaitTicks: 1e3 * i,
      transmitWaitTickSeconds: 1e-9,
    });
    return {
      fabric: 'f',
      fabricType: 'infiniband',
      countersReadAtMs: 1.8e12 + 1000 * i,
      ports: [
        port('0x0000000000000001', '0x0000000000000002', 1),
        port('0x0000000000000002', '0x0000000000000001', 2),
      ],
    };
  });
  const edgeOnly = (text: string) => samples(text).filter((s) => s.name.startsWith('fabscope_link_'));

  it('are those of every read rated against the one before, however many Arrow scrapes came between', async () => {
    // Text at every read; and text only at some, Arrow at the others (the embedded store beside Prometheus).
    const patterns = ['TTTTTT', 'ATATAT', 'AAATAT', 'AATTAT'];
    const texts = new Map<string, string[]>();
    for (const pattern of patterns) {
      let i = 0;
      const registry = createFabricRegistry({
        source: { name: 's', read: async () => reads[i] as FabricSnapshot },
      });
      const out: string[] = [];
      for (i = 0; i < reads.length; i++) {
        if (pattern[i] === 'A') await registry.answer({ names: NAMES, arrow: true });
        else out[i] = await registry.scrape();
      }
      texts.set(pattern, out);
    }
    const every = texts.get('TTTTTT') as string[];
    // Rated reads have the edge families (not vacuous).
    expect(
      edgeOnly(every[3] as string).some(
        (s) => s.name === 'fabscope_link_data_bytes_per_second' && s.value > 0,
      ),
    ).toBe(true);
    for (const pattern of patterns.slice(1)) {
      const out = texts.get(pattern) as string[];
      for (let i = 1; i < reads.length; i++) {
        if (pattern[i] !== 'T') continue;
        expect(edgeOnly(out[i] as string), `${pattern} read ${i}`).toEqual(edgeOnly(every[i] as string));
      }
    }
  });
});
