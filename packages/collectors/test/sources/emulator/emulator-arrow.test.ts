import {
  columnFromArray,
  dictionary,
  float64,
  int8,
  tableFromColumns,
  tableToIPC,
  uint16,
  uint32,
  uint64,
  utf8,
} from '@uwdata/flechette';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type FabricSnapshot,
  type KeptFixedColumns,
  portSamplesFromEmulator,
  portSamplesFromEmulatorArrow,
} from '../../../src/index.ts';

/** One port's `/v1/ports` in both forms, with these native counter values. */
function bothForms(
  counters: Record<'XmitData' | 'RcvData' | 'XmitPkts' | 'RcvPkts' | 'XmitWait', bigint>,
  /** The node's name, and the name the stream gives its fixed columns (absent: none). */
  { nodeName = 'n', fixed }: { nodeName?: string; fixed?: string } = {},
) {
  const json = {
    fabric: 'f',
    fabricType: 'infiniband',
    timeMs: 0,
    dataUnitBytes: 4,
    ports: [
      {
        nodeGuid: '0x1',
        nodeName,
        nodeType: 'host',
        portNumber: 1,
        lid: 1,
        rateGbps: 100,
        linkState: 'active',
        fabricType: 'infiniband',
        remote: null,
        counters: Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, v.toString()])),
      },
    ],
  };
  const columns = [
    ['nodeGuid', columnFromArray(['0x1'], utf8())],
    ['nodeName', columnFromArray([nodeName], utf8())],
    ['nodeType', columnFromArray(['host'], dictionary(utf8()))],
    ['portNumber', columnFromArray([1], uint16())],
    ['lid', columnFromArray([1], uint32())],
    ['rateGbps', columnFromArray([100], float64())],
    ['fabricType', columnFromArray(['infiniband'], dictionary(utf8()))],
    ['remoteNodeGuid', columnFromArray([null], utf8())],
    ['remoteNodeName', columnFromArray([null], utf8())],
    ['remotePortNumber', columnFromArray([null], uint16())],
    ['linkUp', columnFromArray([1], int8())],
    ...Object.entries(counters).map(([k, v]) => [k, columnFromArray([v], uint64())]),
  ] as [string, ReturnType<typeof columnFromArray>][];
  const table = tableFromColumns(columns);
  table.schema.metadata = new Map([
    ['fabric', 'f'],
    ['fabricType', 'infiniband'],
    ['timeMs', '0'],
    ['dataUnitBytes', '4'],
    ...(fixed === undefined ? [] : [['fixed', fixed] as [string, string]]),
  ]);
  return { json, arrow: tableToIPC(table, { format: 'stream' }) as Uint8Array };
}

/** A snapshot as the JSON form gives it: the Arrow form adds its layout token. */
function withoutLayout(snapshot: FabricSnapshot): FabricSnapshot {
  const { layout: _layout, ...rest } = snapshot;
  return rest;
}

describe("the emulator's Arrow form", () => {
  it('reads any 64-bit counter exactly as the JSON form does (beyond 2^53 too)', () => {
    const counter = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
    fc.assert(
      fc.property(
        fc.record({
          XmitData: counter,
          RcvData: counter,
          XmitPkts: counter,
          RcvPkts: counter,
          XmitWait: counter,
        }),
        (counters) => {
          const { json, arrow } = bothForms(counters);
          expect(withoutLayout(portSamplesFromEmulatorArrow(arrow))).toEqual(
            portSamplesFromEmulator(json as never),
          );
        },
      ),
    );
  });

  it('refuses a stream that lacks a column every port has, naming it', () => {
    const { arrow } = bothForms({ XmitData: 1n, RcvData: 1n, XmitPkts: 1n, RcvPkts: 1n, XmitWait: 1n });
    expect(portSamplesFromEmulatorArrow(arrow).ports).toHaveLength(1);
    const table = tableFromColumns([['nodeGuid', columnFromArray(['0x1'], utf8())]]);
    table.schema.metadata = new Map([
      ['fabric', 'f'],
      ['fabricType', 'infiniband'],
      ['timeMs', '0'],
      ['dataUnitBytes', '4'],
    ]);
    expect(() => portSamplesFromEmulatorArrow(tableToIPC(table, { format: 'stream' }) as Uint8Array)).toThrow(
      'emulator /v1/ports Arrow stream lacks column "nodeName"',
    );
  });

  it('keeps the fixed columns of a stream that names them, and decodes them again under another name or none', () => {
    const counters = { XmitData: 1n, RcvData: 2n, XmitPkts: 3n, RcvPkts: 4n, XmitWait: 5n };
    const kept: KeptFixedColumns = {};
    const layouts: (object | undefined)[] = [];
    const read = (options: { nodeName?: string; fixed?: string }) => {
      const { json, arrow } = bothForms(counters, options);
      const samples = portSamplesFromEmulatorArrow(arrow, undefined, kept);
      expect(withoutLayout(samples)).toEqual(portSamplesFromEmulator(json as never));
      layouts.push(samples.layout);
      return samples.ports[0]?.nodeName;
    };
    expect(read({ nodeName: 'a', fixed: 'one' })).toBe('a');
    expect(kept.columns?.name).toBe('one');
    // Another encoder's columns (a restarted emulator, another fabric): decoded, not the kept ones.
    expect(read({ nodeName: 'b', fixed: 'two' })).toBe('b');
    // A stream that names none is decoded every time, and nothing of it is kept.
    expect(read({ nodeName: 'c' })).toBe('c');
    expect(kept.columns).toBeUndefined();
    expect(read({ nodeName: 'd', fixed: 'two' })).toBe('d');
    // The same name again: the kept columns, without decoding (what the name promises).
    const { arrow } = bothForms(counters, { nodeName: 'changed', fixed: 'two' });
    const again = portSamplesFromEmulatorArrow(arrow, undefined, kept);
    expect(again.ports[0]?.nodeName).toBe('d');
    // The snapshot's layout is the same object exactly while the kept columns are.
    expect(again.layout).toBe(layouts[3]);
    expect(new Set(layouts).size).toBe(4);
  });
});
