import type { PortCountersDocument } from '@fabscope/emulator';
import { describe, expect, it } from 'vitest';
import { bookClears, labCommands } from '../src/demo/lab-pump.ts';

function doc(
  ports: {
    node: string;
    port: number;
    remote?: [string, number];
    down?: boolean;
    counters: Record<string, string>;
  }[],
) {
  return {
    fabric: 'lab',
    fabricType: 'infiniband',
    timeMs: 0,
    dataUnitBytes: 4,
    ports: ports.map((p) => ({
      nodeGuid: '0x1',
      nodeName: p.node,
      nodeType: 'switch',
      portNumber: p.port,
      lid: 1,
      rateGbps: 100,
      linkState: p.down ? 'down' : 'active',
      remote: p.remote ? { nodeGuid: '0x2', nodeName: p.remote[0], portNumber: p.remote[1] } : null,
      fabricType: 'infiniband',
      counters: p.counters,
    })),
  } as unknown as PortCountersDocument;
}

describe('the lab pump’s console commands', () => {
  it('writes what changed only, in the PMA’s attribute and field, capped at the field’s width', () => {
    const written = new Map<string, bigint>();
    const down = new Set<string>();
    const first = labCommands(
      doc([
        {
          node: 'sw1',
          port: 5,
          remote: ['sw2', 5],
          counters: { XmitData: '100', RcvData: '0', XmitWait: '4294967296', SymbolErrors: '70000' },
        },
      ]),
      written,
      down,
    );
    expect(first).toEqual([
      'PerformanceSet "sw1"[5] PortCountersExtended.PortXmitData=100',
      'PerformanceSet "sw1"[5] PortCountersExtended.PortRcvData=0',
      // Basic PortCounters saturate at their IBTA width, as ibsim keeps them.
      'PerformanceSet "sw1"[5] PortCounters.PortXmitWait=4294967295',
      'PerformanceSet "sw1"[5] PortCounters.SymbolErrorCounter=65535',
    ]);
    const second = labCommands(
      doc([
        {
          node: 'sw1',
          port: 5,
          remote: ['sw2', 5],
          counters: { XmitData: '250', RcvData: '0', XmitWait: '4294967296', SymbolErrors: '70001' },
        },
      ]),
      written,
      down,
    );
    expect(second).toEqual(['PerformanceSet "sw1"[5] PortCountersExtended.PortXmitData=250']);
  });

  it('unplugs a cable once when the emulator takes it down, from the end that sorts first, and plugs it back', () => {
    const written = new Map<string, bigint>();
    const down = new Set<string>();
    const ports = (isDown: boolean) =>
      doc([
        { node: 'sw2', port: 5, remote: ['sw1', 5], down: isDown, counters: {} },
        { node: 'sw1', port: 5, remote: ['sw2', 5], down: isDown, counters: {} },
      ]);
    expect(labCommands(ports(false), written, down)).toEqual([]);
    expect(labCommands(ports(true), written, down)).toEqual(['Unlink "sw1"[5]']);
    expect(labCommands(ports(true), written, down)).toEqual([]);
    expect(labCommands(ports(false), written, down)).toEqual(['Link "sw1"[5] "sw2"[5]']);
  });

  it('after the collector clears a counter, writes on from 0: the emulator counts less what the clear took', () => {
    const written = new Map<string, bigint>();
    const cleared = new Map<string, bigint>();
    const down = new Set<string>();
    const port = (wait: string, symbols: string) =>
      doc([{ node: 'sw1', port: 5, counters: { XmitWait: wait, SymbolErrors: symbols } }]);
    labCommands(port('3000000000', '10'), written, down, cleared);
    // The reader's sweep cleared XmitWait (past half its width), not the symbol errors.
    bookClears(written, cleared, 'sw1', 5, ['PortXmitWait']);
    expect(labCommands(port('3000000500', '12'), written, down, cleared)).toEqual([
      'PerformanceSet "sw1"[5] PortCounters.PortXmitWait=500',
      'PerformanceSet "sw1"[5] PortCounters.SymbolErrorCounter=12',
    ]);
    // A second clear adds to the first: the subnet held 500 then.
    bookClears(written, cleared, 'sw1', 5, ['PortXmitWait']);
    expect(labCommands(port('3000000800', '12'), written, down, cleared)).toEqual([
      'PerformanceSet "sw1"[5] PortCounters.PortXmitWait=300',
    ]);
  });
});
