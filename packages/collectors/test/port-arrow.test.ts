import { tableFromIPC } from '@uwdata/flechette';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFabricRegistry } from '../src/fabric/fabric-metrics.ts';
import { arrowFamilies } from '../src/fabric/port-arrow.ts';
import { PORT_FAMILIES } from '../src/fabric/port-exposition.ts';
import type { FabricSnapshot, PortSample } from '../src/fabric/port-sample.ts';
import { accepts } from '../src/metrics-server.ts';
import { samples } from './helpers.ts';

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
