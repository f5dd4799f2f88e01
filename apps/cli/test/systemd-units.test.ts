import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { COLLECT_FABRIC_OPTIONS } from '../src/commands/collect.ts';

const run = promisify(execFile);
const DIR = resolve(import.meta.dirname, '../../../deploy/systemd');
const UNITS = readdirSync(DIR).filter((f) => f.endsWith('.service'));

/** The [Service] section's settings, every value of a repeated key. */
function serviceSettings(unit: string): Map<string, string[]> {
  const text = readFileSync(join(DIR, unit), 'utf8');
  const section = text.split(/^\[Service\]$/m)[1]?.split(/^\[/m)[0] ?? '';
  const settings = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line);
    if (match?.[1]) settings.set(match[1], [...(settings.get(match[1]) ?? []), match[2] ?? '']);
  }
  return settings;
}

// The bare-metal units (deploy/systemd), as systemd reads them: `systemd-analyze verify` (from the
// systemd package) loads each one, checks every key and that ExecStart's program exists.
describe('deploy/systemd: the collector and serve units', () => {
  const copies = mkdtempSync(join(tmpdir(), 'fabscope-units-'));
  afterAll(() => rmSync(copies, { recursive: true, force: true }));

  it('ships a unit for the InfiniBand collector and one for fabscope serve', () => {
    expect(UNITS.sort()).toEqual(['fabscope-collector.service', 'fabscope-serve.service']);
  });

  it.each(UNITS)('%s passes systemd-analyze verify with no warning', async (unit) => {
    copyFileSync(join(DIR, unit), join(copies, unit));
    const verified = await run('systemd-analyze', ['verify', join(copies, unit)]).catch(
      (error: Error & { code?: string | number; stderr?: string }) => {
        if (error.code === 'ENOENT')
          throw new Error('systemd-analyze is missing: install the systemd package (npm test does, as root)');
        throw new Error(
          `systemd-analyze verify ${unit} failed (exit ${error.code}). If it cannot run in this ` +
            `sandbox at all (no /run/systemd, no /etc/machine-id), that is the sandbox, not the unit: ${error.stderr ?? error.message}`,
        );
      },
    );
    expect(verified.stderr).toBe('');
  });

  it.each(UNITS)('%s runs as the dedicated user, hardened, with only the umad devices', (unit) => {
    const s = serviceSettings(unit);
    expect(s.get('User')).toEqual(['fabscope']);
    expect(s.get('SupplementaryGroups')).toEqual(['rdma']);
    for (const [key, value] of [
      ['NoNewPrivileges', 'yes'],
      ['CapabilityBoundingSet', ''],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['DevicePolicy', 'closed'],
      ['DeviceAllow', 'char-infiniband_mad rw'],
    ])
      expect(s.get(key as string), `${unit}: ${key}`).toEqual([value]);
  });

  it('the collector runs `collect fabric --source infiniband` with options the CLI accepts', () => {
    const exec = serviceSettings('fabscope-collector.service').get('ExecStart')?.[0]?.split(' ') ?? [];
    const at = exec.indexOf('collect');
    expect(exec.slice(at, at + 2)).toEqual(['collect', 'fabric']);
    const { values } = parseArgs({ args: exec.slice(at + 2), options: COLLECT_FABRIC_OPTIONS, strict: true });
    expect(values.source).toBe('infiniband');
  });

  it('the udev rule gives the umad devices to the group the units join; the sysusers file makes the user', () => {
    const rule = readFileSync(join(DIR, '90-fabscope-umad.rules'), 'utf8');
    expect(rule).toMatch(/^KERNEL=="umad\*", SUBSYSTEM=="infiniband_mad", GROUP="rdma", MODE="0660"$/m);
    expect(rule).not.toMatch(/^[^#]*issm/m);
    const sysusers = readFileSync(join(DIR, 'fabscope.sysusers.conf'), 'utf8');
    expect(sysusers).toMatch(/^u fabscope /m);
    expect(sysusers).toMatch(/^m fabscope rdma$/m);
  });
});
