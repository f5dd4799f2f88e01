import { describe, expect, it } from 'vitest';
import { lldpLinks } from '../../../src/sources/snmp/lldp-links.ts';
import { switchGuid, switchPorts } from '../../../src/sources/snmp/snmp-ports.ts';
import { decodeAnswer, type SwitchReading } from '../../../src/sources/snmp/snmp-tables.ts';
import { agentAnswer } from './answers.ts';

/** leaf1 Ethernet1 ↔ spine1 Ethernet3 (both ends run LLDP); leaf1 Ethernet2 → spine2 (not read). */
function fabric(): SwitchReading[] {
  const leaf = agentAnswer({
    sysName: 'leaf1',
    upTimeTicks: 1,
    chassisMac: '00:1c:73:00:00:01',
    interfaces: [
      { ifIndex: 1, name: 'Ethernet1' },
      { ifIndex: 2, name: 'Ethernet2' },
    ],
    localPorts: { 1: 'Ethernet1', 2: 'Ethernet2' },
    neighbours: [
      { localPortNum: 1, sysName: 'spine1', portId: 'Ethernet3' },
      { localPortNum: 2, sysName: 'spine2', portId: 'Ethernet9' },
    ],
  });
  const spine = agentAnswer({
    sysName: 'spine1',
    upTimeTicks: 1,
    interfaces: [
      { ifIndex: 5, name: 'Ethernet1' },
      { ifIndex: 7, name: 'Ethernet3' },
    ],
    localPorts: { 7: 'Ethernet3' },
    neighbours: [{ localPortNum: 7, sysName: 'leaf1', portId: 'Ethernet1' }],
  });
  return [decodeAnswer(leaf), decodeAnswer(spine)];
}

describe('the Ethernet topology from LLDP', () => {
  it('joins the two reports of one cable, and says which cables were seen from one end only', () => {
    expect(lldpLinks(fabric())).toEqual([
      {
        a: { switchName: 'leaf1', portName: 'Ethernet1', portNumber: 1 },
        b: { switchName: 'spine1', portName: 'Ethernet3', portNumber: 2 },
        seenFrom: 'both',
      },
      {
        a: { switchName: 'leaf1', portName: 'Ethernet2', portNumber: 2 },
        b: { switchName: 'spine2', portName: 'Ethernet9', portNumber: null },
        seenFrom: 'one-end',
      },
    ]);
  });

  it("gives each port the far end's node and port when that switch was read", () => {
    const readings = fabric();
    const byName = new Map(readings.map((r) => [r.name, r]));
    const [leaf, spine] = readings as [SwitchReading, SwitchReading];
    expect(switchGuid(leaf)).toBe('0x0000001c73000001');
    expect(switchGuid(spine)).toMatch(/^0x[0-9a-f]{16}$/);
    const leafPorts = switchPorts(leaf, byName);
    expect(leafPorts.map((p) => p.remote)).toEqual([
      { nodeGuid: switchGuid(spine), nodeName: 'spine1', portNumber: 2, nodeType: 'switch' },
      null,
    ]);
    expect(switchPorts(spine, byName).map((p) => p.remote?.nodeName ?? null)).toEqual([null, 'leaf1']);
  });
});
