import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildScenario, ParseError, parsePortsReportLines } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ibsimNetFile, type Lab, LabError, startLab } from '../src/index.ts';

const run = promisify(execFile);

describe('ibsim net file', () => {
  it('writes every cabled port with its width and speed, the first host first', () => {
    const net = ibsimNetFile(buildScenario('ar-demo'));
    const records = net.split('\n\n').filter((r) => /^(Hca|Switch)/m.test(r));
    expect(records[0]).toMatch(/^Hca\t1 "nodeA"\n\[1\]\t"edge1"\[1\]\tw=2 s=4 e=2$/);
    expect(net).toMatch(
      /^Switch\t48 "core2"\n\[1\]\t"edge1"\[4\]\tw=2 s=4 e=2\n\[2\]\t"edge2"\[4\]\tw=2 s=4 e=2$/m,
    );
    expect(records).toHaveLength(8);
  });

  it('refuses what an InfiniBand subnet cannot hold, naming it', () => {
    expect(() => ibsimNetFile(buildScenario('opa-ethernet-router'))).toThrow(LabError);
    expect(() => ibsimNetFile(buildScenario('opa-ethernet-router'))).toThrow(
      /router: ibsim simulates switches and adapters only/,
    );
    expect(() => ibsimNetFile(buildScenario('lustre-storage'))).toThrow(
      /Ethernet: ibsim simulates InfiniBand only/,
    );
    expect(() => ibsimNetFile(buildScenario('fat-tree-6912'))).toThrow(/switches: ibsim holds 256 at most/);
  });
});

describe('the lab: ibsim + OpenSM, read with the real tools', () => {
  let lab: Lab;
  beforeAll(async () => {
    lab = await startLab({
      net: ibsimNetFile(buildScenario('ar-demo')),
      routing: 'ftree',
      sockName: `lab-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
  }, 60_000);
  afterAll(async () => {
    await lab?.stop();
  });
  const tool = async (cmd: string, ...args: string[]) =>
    (await run(cmd, args, { env: { ...process.env, ...lab.env }, cwd: lab.cwd })).stdout;

  it('is the scenario as ibnetdiscover sees it: names, cables, 4x EDR, LIDs from OpenSM', async () => {
    const lines = parsePortsReportLines(await tool('ibnetdiscover', '-p')).filter((l) => l.remote);
    const cables = lines.map(
      (l) => `${l.local.name}/${l.local.port}->${l.remote?.name}/${l.remote?.port} ${l.width}${l.speed}`,
    );
    const fabric = buildScenario('ar-demo');
    const expected = fabric.links.flatMap((l) => [
      `${l.a.node}/${l.a.port}->${l.b.node}/${l.b.port} 4xEDR`,
      `${l.b.node}/${l.b.port}->${l.a.node}/${l.a.port} 4xEDR`,
    ]);
    expect(cables.sort()).toEqual(expected.sort());
    expect(lines.every((l) => l.local.lid > 0)).toBe(true);
    expect(await tool('cat', lab.lftsDumpPath)).toMatch(/lids dumped\n$/);
  });

  it('lists every cable from both ends in -p, so a report cut at a line boundary that loses one is refused', async () => {
    const lines = (await tool('ibnetdiscover', '-p')).split('\n').filter((l) => l.trim() !== '');
    expect(parsePortsReportLines(lines.join('\n'))).toHaveLength(lines.length);
    for (let cut = 1; cut < lines.length; cut++) {
      const head = lines.slice(0, cut);
      let read: ReturnType<typeof parsePortsReportLines> = [];
      let error: unknown;
      try {
        read = parsePortsReportLines(head.join('\n'));
      } catch (e) {
        error = e;
      }
      const own = new Set(read.map((l) => `${l.local.guid}/${l.local.port}`));
      // Accepted only when every cable it lists has its second listing within the cut.
      expect(
        read.every((l) => !l.remote || own.has(`${l.remote.guid}/${l.remote.port}`)),
        `cut after line ${cut}`,
      ).toBe(true);
      if (error) {
        expect(error).toBeInstanceOf(ParseError);
        expect((error as ParseError).message).toMatch(/is listed from this end only/);
      }
    }
  });

  it('takes console commands: PerformanceSet shows in perfquery, Unlink in ibnetdiscover and LinkDownedCounter, a bad command is refused', async () => {
    await lab.performanceSet('edge1', 3, 'PortCountersExtended.PortXmitData', 1_000_000_000);
    const edge1 = parsePortsReportLines(await tool('ibnetdiscover', '-p')).find(
      (l) => l.local.name === 'edge1',
    );
    const out = await tool('perfquery', '-x', String(edge1?.local.lid), '3');
    expect(out).toMatch(/PortXmitData:\.+1000\d{6}$/m);
    await lab.performanceSet('edge1', 3, 'PortCounters.LinkDownedCounter', 4);
    await lab.unlink('edge1', 3);
    const after = parsePortsReportLines(await tool('ibnetdiscover', '-p'));
    expect(after.find((l) => l.local.name === 'edge1' && l.local.port === 3)?.remote).toBeNull();
    // As a pulled cable does on hardware: one more link down, on the port pulled.
    expect(await tool('perfquery', String(edge1?.local.lid), '3')).toMatch(/LinkDownedCounter:\.+5$/m);
    await expect(lab.command('Frobnicate "edge1"[3]')).rejects.toThrow(/unknown - skipped/);
    await expect(lab.performanceSet('nosuch', 1, 'PortCounters.SymbolErrorCounter', 1)).rejects.toThrow(
      LabError,
    );
  });
});
