import { snmpSource } from '@fabscope/collectors';
import { describeTopologyChange, diffTopology, topologySnapshot } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { discoverLldpFabric, lldpRediscovery } from '../src/serve-snmp.ts';

type Table = Record<string, Record<string, unknown>>;

/** An agent's answer as net-snmp gives it: `ports` Ethernet1.., `cabled` port → [neighbour, its port]. */
function answer(name: string, ports: number, cabled: Record<number, [string, string]>) {
  const ifTable: Table = {};
  const ifXTable: Table = {};
  const lldpLocPortTable: Table = {};
  const lldpRemTable: Table = {};
  for (let p = 1; p <= ports; p++) {
    const ifName = Buffer.from(`Ethernet${p}`);
    ifTable[p] = { '2': ifName, '3': 6, '8': 1, '13': 0, '14': 0, '19': 0, '20': 0 };
    ifXTable[p] = { '1': ifName, '6': Buffer.alloc(0), '10': Buffer.alloc(0), '15': 100_000, '18': ifName };
    lldpLocPortTable[p] = { '2': 5, '3': ifName, '4': ifName };
    const far = cabled[p];
    if (far)
      lldpRemTable[`0.${p}.1`] = {
        '6': 5,
        '7': Buffer.from(far[1]),
        '8': Buffer.from(far[1]),
        '9': Buffer.from(far[0]),
      };
  }
  return {
    upTimeTicks: 100,
    sysName: Buffer.from(name),
    lldpLocChassisId: null,
    lldpLocSysName: Buffer.from(name),
    ifTable,
    ifXTable,
    lldpLocPortTable,
    lldpRemTable,
  };
}

describe('LLDP rediscovery while serve runs', () => {
  it("shows a cable pulled as a topology change from the newest sweep's walk, and waits while an agent is silent", async () => {
    // leaf1 Ethernet3/4 to spine1/spine2 Ethernet1; host1 on leaf1 Ethernet1.
    const cabled: Record<string, Record<number, [string, string]>> = {
      leaf1: { 1: ['host1', 'eth0'], 3: ['spine1', 'Ethernet1'], 4: ['spine2', 'Ethernet1'] },
      spine1: { 1: ['leaf1', 'Ethernet3'] },
      spine2: { 1: ['leaf1', 'Ethernet4'] },
    };
    let silent: string | null = null;
    const targets = ['leaf1', 'spine1', 'spine2'].map((name) => ({
      label: name,
      host: '127.0.0.1',
      port: 161,
      credentials: { version: '2c' as const, community: name },
    }));
    const source = snmpSource({
      targets,
      // Between full walks the source reads counters only: LLDP is read when a full walk is asked for.
      walkAgent: async (t, _options, _signal, scope = 'full') => {
        const name = t.label;
        if (name === silent) throw new Error('Request timed out');
        const walked = answer(name, 4, cabled[name] ?? {});
        return scope === 'full' ? walked : { ...walked, lldpLocPortTable: {}, lldpRemTable: {} };
      },
    });
    let last: Awaited<ReturnType<typeof source.read>> | null = null;
    const sweep = async () => {
      last = await source.read(AbortSignal.timeout(5000));
    };
    const rediscover = lldpRediscovery('ethernet', source, () => last?.targets ?? null);
    await expect(rediscover()).rejects.toThrow(/no SNMP sweep yet/);
    const loaded = await discoverLldpFabric(source, 5000);
    await sweep();
    const before = await rediscover();
    // Rediscovery of an unchanged fabric is the fabric serve drew at its start: no change, no event.
    expect(diffTopology(topologySnapshot(loaded), topologySnapshot(before))).toEqual([]);
    expect(before.links.map((l) => l.id).sort()).toEqual([
      'host1/1--leaf1/1',
      'leaf1/3--spine1/1',
      'leaf1/4--spine2/1',
    ]);
    // The cable leaf1 Ethernet4 – spine2 Ethernet1 pulled: both ends' LLDP tables lose the neighbour.
    delete cabled.leaf1?.[4];
    delete cabled.spine2?.[1];
    await sweep();
    const after = await rediscover();
    const changes = diffTopology(topologySnapshot(before), topologySnapshot(after));
    const pulled = changes.filter((c) => c.kind === 'link-removed').map((c) => describeTopologyChange(c));
    expect(pulled).toHaveLength(1);
    expect(`${pulled[0]?.subject} ${pulled[0]?.detail}`).toMatch(/leaf1\/4.*spine2\/1.*removed/);
    // spine2, cabled to nothing now, is drawn as an island at the leaves' tier.
    expect(changes.map((c) => c.kind).sort()).toEqual(['link-removed', 'node-changed']);
    // An agent that did not answer the sweep is not a switch gone: no rediscovery until it answers.
    silent = 'spine1';
    await sweep();
    await expect(rediscover()).rejects.toThrow(/spine1 timeout|spine1 error/);
    silent = null;
    await sweep();
    expect(diffTopology(topologySnapshot(after), topologySnapshot(await rediscover()))).toEqual([]);
  });
});
