import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../src/config.ts';

describe('FABSCOPE_NODE_NAME_MAP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-names-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads the map at start: names by GUID', () => {
    const path = file('good', '# site\n0x0002c90300001010 "leaf01"\n');
    expect([...(configFromEnv({ FABSCOPE_NODE_NAME_MAP: path }).nodeNames ?? [])]).toEqual([
      ['0x0002c90300001010', 'leaf01'],
    ]);
    expect(configFromEnv({}).nodeNames).toBeUndefined();
  });

  it('refuses a bad map at start, naming the file and the line', () => {
    const path = file('bad', '0x1 "a"\nleaf01\n');
    expect(() => configFromEnv({ FABSCOPE_NODE_NAME_MAP: path })).toThrow(ConfigError);
    expect(() => configFromEnv({ FABSCOPE_NODE_NAME_MAP: path })).toThrow(
      /FABSCOPE_NODE_NAME_MAP: .*bad \(node-name-map\): line 2: expected a GUID/,
    );
    expect(() => configFromEnv({ FABSCOPE_NODE_NAME_MAP: join(dir, 'none') })).toThrow(/cannot read/);
  });
});
