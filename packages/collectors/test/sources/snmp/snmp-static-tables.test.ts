import { describe, expect, it } from 'vitest';
import {
  IF_MOVING_COLUMNS,
  IFX_MOVING_COLUMNS,
  type WalkScope,
} from '../../../src/sources/snmp/snmp-agent.ts';
import { snmpSource, staticPart, withStatic } from '../../../src/sources/snmp/snmp-source.ts';
import type { AgentAnswer, SnmpTable } from '../../../src/sources/snmp/snmp-tables.ts';
import { parseSnmpTargets } from '../../../src/sources/snmp/snmp-targets.ts';
import { agentAnswer } from './answers.ts';

function only(table: SnmpTable, columns: readonly number[]): SnmpTable {
  return Object.fromEntries(
    Object.entries(table).map(([i, row]) => [
      i,
      Object.fromEntries(columns.filter((c) => String(c) in row).map((c) => [String(c), row[String(c)]])),
    ]),
  );
}

/** What walkAgent reads of `full` for `scope`: a counters walk has sysUpTime and the moving columns only. */
function asWalked(full: AgentAnswer, scope: WalkScope): AgentAnswer {
  if (scope === 'full') return full;
  return {
    upTimeTicks: full.upTimeTicks,
    sysName: undefined,
    lldpLocChassisId: undefined,
    lldpLocSysName: undefined,
    ifTable: only(full.ifTable, IF_MOVING_COLUMNS),
    ifXTable: only(full.ifXTable, IFX_MOVING_COLUMNS),
    lldpLocPortTable: {},
    lldpRemTable: {},
  };
}

/** One switch whose walks are recorded: the scope of each, its counter and sysUpTime set by the test. */
function recordedSwitch(fullEvery?: number) {
  const state = { ticks: 1000, octets: 0n, name: 'Ethernet1', scopes: [] as WalkScope[] };
  const source = snmpSource({
    targets: parseSnmpTargets('leaf1 v2c public'),
    ...(fullEvery === undefined ? {} : { fullEvery }),
    walkAgent: async (_t, _o, _s, scope = 'full') => {
      state.scopes.push(scope);
      const full = agentAnswer({
        sysName: 'leaf1',
        upTimeTicks: state.ticks,
        interfaces: [
          { ifIndex: 1, name: state.name, speedMbps: 400_000, outOctets: state.octets, inOctets: 7n },
        ],
        localPorts: { 1: state.name },
        neighbours: [{ localPortNum: 1, sysName: 'spine1', portId: 'Ethernet9' }],
      });
      return asWalked(full, scope);
    },
  });
  return { state, source };
}

describe('the SNMP source reads only what moves', () => {
  it('walks names, speeds and LLDP on the first sweep only, counters every sweep, all again after a restart', async () => {
    const { state, source } = recordedSwitch();
    for (let sweep = 0; sweep < 4; sweep++) {
      state.ticks += 1000;
      state.octets += 5000n;
      // A rename between full walks is not seen: the names are the first walk's until the next full one.
      if (sweep === 2) state.name = 'Ethernet1-renamed';
      const snapshot = await source.read(AbortSignal.timeout(1000));
      const port = snapshot.ports[0];
      expect(port?.transmitBytes).toBe(Number(state.octets));
      expect(port?.receiveBytes).toBe(7);
      expect(port?.rateBytesPerSecond).toBe(50e9);
      expect(source.readings()[0]?.interfaces[0]?.name).toBe('Ethernet1');
      expect(source.readings()[0]?.neighbours[0]?.sysName).toBe('spine1');
    }
    expect(state.scopes).toEqual(['full', 'counters', 'counters', 'counters']);
    state.ticks = 10;
    const restarted = await source.read(AbortSignal.timeout(1000));
    expect(restarted.targets?.[0]?.reason).toMatch(/agent restarted/);
    state.ticks += 1000;
    await source.read(AbortSignal.timeout(1000));
    expect(state.scopes.slice(4)).toEqual(['counters', 'full']);
    expect(source.readings()[0]?.interfaces[0]?.name).toBe('Ethernet1-renamed');
  });

  it('walks in full every fullEvery sweeps, and when a caller asks for discovery', async () => {
    const { state, source } = recordedSwitch(3);
    for (let sweep = 0; sweep < 7; sweep++) {
      state.ticks += 1000;
      if (sweep === 4) source.discover();
      await source.read(AbortSignal.timeout(1000));
    }
    expect(state.scopes).toEqual(['full', 'counters', 'counters', 'full', 'full', 'counters', 'counters']);
  });

  it('leaves a counter the counters walk lacks unknown, never the full walk’s old value, nor a lost table', async () => {
    // A switch whose counters walk misses ifHCOutOctets.
    const walked: AgentAnswer[] = [];
    const gappy = snmpSource({
      targets: parseSnmpTargets('leaf1 v2c public'),
      walkAgent: async (_t, _o, _s, scope = 'full') => {
        const full = agentAnswer({
          sysName: 'leaf1',
          upTimeTicks: 1000 + walked.length,
          interfaces: [{ ifIndex: 1, name: 'Ethernet1', outOctets: 123n }],
        });
        const answer = asWalked(full, scope);
        if (scope === 'counters') delete answer.ifXTable['1']?.['10'];
        if (walked.length === 2) answer.ifXTable = {};
        walked.push(answer);
        return answer;
      },
    });
    expect((await gappy.read(AbortSignal.timeout(1000))).ports[0]?.transmitBytes).toBe(123);
    expect((await gappy.read(AbortSignal.timeout(1000))).ports[0]?.transmitBytes).toBeNaN();
    // A counters walk without ifXTable loses the switch for the sweep, with the reason.
    const lost = await gappy.read(AbortSignal.timeout(1000));
    expect(lost.ports).toEqual([]);
    expect(lost.targets?.[0]?.reason).toMatch(/no ifXTable/);
  });

  it('keeps nothing of the pause and ECN tables between walks: they come from the walk just read, or not at all', () => {
    const full: AgentAnswer = {
      ...agentAnswer({
        sysName: 'leaf1',
        upTimeTicks: 1000,
        interfaces: [{ ifIndex: 1, name: 'Ethernet1' }],
      }),
      congestion: [{ '1': { '2': 5, '3': 9 } }, undefined],
    };
    const kept = staticPart(full);
    expect(kept.congestion).toBeUndefined();
    const counters = asWalked(full, 'counters');
    expect(withStatic(kept, counters).congestion).toBeUndefined();
    const moved: AgentAnswer = { ...counters, congestion: [{ '1': { '2': 6, '3': 11 } }, undefined] };
    expect(withStatic(kept, moved).congestion).toEqual(moved.congestion);
  });
});
