import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Snmpsim, startSnmpsim } from '@fabscope/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const ARISTA = fileURLToPath(
  new URL(
    '../../../packages/collectors/test/fixtures/snmpsim/arista-dcs-7150s-52-cl.snmprec',
    import.meta.url,
  ),
);

let sim: Snmpsim;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fabscope-cli-snmp-'));
  sim = await startSnmpsim({ arista: ARISTA }, 'arista');
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('fabscope collect fabric --source snmp', () => {
  it('prints one scrape of the switches in the targets file', async () => {
    const targets = join(dir, 'agents.txt');
    writeFileSync(targets, `# the recorded Arista\n127.0.0.1:${sim.port} v2c arista\n`);
    const run = await runCli([
      'collect',
      'fabric',
      '--source',
      'snmp',
      '--targets',
      targets,
      '--fabric',
      'dc1',
      '--once',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const info = run.stdout.split('\n').filter((l) => l.startsWith('fabscope_port_info{'));
    expect(info.length).toBe(53);
    expect(info[0]).toContain('fabric="dc1"');
    expect(info[0]).toContain('node_name="ZJ-BP-Main-Arista"');
    expect(info[0]).toContain('node_type="switch"');
  });

  it('stops naming the line of a bad targets file', async () => {
    const targets = join(dir, 'bad.txt');
    writeFileSync(targets, `127.0.0.1:${sim.port} v2c arista\n127.0.0.1 v2\n`);
    const run = await runCli(['collect', 'fabric', '--source', 'snmp', '--targets', targets, '--once']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `--targets ${targets}: targets line 2: expected "HOST[:PORT] v2c COMMUNITY"`,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
