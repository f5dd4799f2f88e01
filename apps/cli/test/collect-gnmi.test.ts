import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'fabscope-cli-gnmi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Streaming from the fake gNMI target: packages/collectors/test/sources/gnmi/gnmi-fake-target.test.ts.
describe('fabscope collect fabric --source gnmi', () => {
  it('stops naming the line of a bad targets file', async () => {
    const targets = join(dir, 'bad.txt');
    writeFileSync(targets, '127.0.0.1:9339 insecure name=leaf1\n127.0.0.1:9340 tls password=hunter2\n');
    const run = await runCli(['collect', 'fabric', '--source', 'gnmi', '--targets', targets, '--once']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`--targets ${targets}: targets line 2: unknown option "password"`);
  });

  it('stops at start naming a password variable that is not set, or a CA file that is not there', async () => {
    const targets = join(dir, 'secrets.txt');
    writeFileSync(targets, '127.0.0.1:9339 insecure username=ro password-env=FABSCOPE_TEST_UNSET_PASSWORD\n');
    const run = await runCli(['collect', 'fabric', '--source', 'gnmi', '--targets', targets, '--once']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `--targets ${targets}: 127.0.0.1:9339: password-env=FABSCOPE_TEST_UNSET_PASSWORD is not set`,
    );
    writeFileSync(targets, `127.0.0.1:9339 tls ca=${join(dir, 'no-such-ca.pem')}\n`);
    const tls = await runCli(['collect', 'fabric', '--source', 'gnmi', '--targets', targets, '--once']);
    expect(tls.code).not.toBe(0);
    expect(tls.stderr).toContain(`127.0.0.1:9339: ca=${join(dir, 'no-such-ca.pem')}: ENOENT`);
  });

  it('needs a targets file', async () => {
    const run = await runCli(['collect', 'fabric', '--source', 'gnmi', '--once']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--source gnmi needs --targets FILE');
  });
});
