import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../src/config.ts';

describe('FABSCOPE_FABRIC=snmp', () => {
  it('needs FABSCOPE_SNMP_TARGETS, a file that exists, and reads it only then', () => {
    expect(() => configFromEnv({ FABSCOPE_FABRIC: 'snmp' })).toThrow(
      new ConfigError('FABSCOPE_FABRIC=snmp needs FABSCOPE_SNMP_TARGETS (the switch agents, one a line)'),
    );
    expect(() =>
      configFromEnv({ FABSCOPE_FABRIC: 'snmp', FABSCOPE_SNMP_TARGETS: '/nonexistent/targets' }),
    ).toThrow(/FABSCOPE_SNMP_TARGETS names a file that does not exist/);
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-snmp-config-'));
    try {
      const path = join(dir, 'targets');
      writeFileSync(path, 'leaf1.example:161 v2c public\n');
      const config = configFromEnv({ FABSCOPE_FABRIC: 'snmp', FABSCOPE_SNMP_TARGETS: path });
      expect(config.fabricSource).toBe('snmp');
      expect(config.snmpTargetsPath).toBe(path);
      expect(configFromEnv({ FABSCOPE_SNMP_TARGETS: path }).snmpTargetsPath).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
