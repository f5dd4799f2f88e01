import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

// The real-format fixtures live beside the parsers that own them.
const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(dirname(require.resolve(name)));
const TOPOLOGY = join(packageDir('@fabscope/topology'), 'test/fixtures');
const COLLECTORS = join(packageDir('@fabscope/collectors'), 'test/fixtures');
const dir = mkdtempSync(join(tmpdir(), 'fabscope-parse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => runCli(args);
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
/** One line, printable, no stack trace. */
const oneCleanLine = (stderr: string) => {
  expect(stderr.endsWith('\n')).toBe(true);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(
    [...stderr.trimEnd()].filter((ch) => {
      const c = ch.codePointAt(0) as number;
      return c < 0x20 || (c >= 0x7f && c < 0xa0) || c === 0xfffd;
    }),
  ).toEqual([]);
};
const randomBytes = Buffer.from(Array.from({ length: 400 }, (_, i) => (i * 7919 + 13) % 256));

describe('fabscope topology parse: opareport topology XML', () => {
  it('reads opareport XML with GUIDs and opaxlattopology XML without them', async () => {
    const withGuids = await run(['topology', 'parse', join(TOPOLOGY, 'opa-topology.xml'), '--json']);
    expect(withGuids.code).toBe(0);
    expect(JSON.parse(withGuids.stdout)).toMatchObject({ fabricType: 'omnipath', switches: 1 });
    const without = await run(['topology', 'parse', join(TOPOLOGY, 'opaxlattopology.xml'), '--json']);
    expect(without.code).toBe(0);
    expect(JSON.parse(without.stdout)).toMatchObject({
      fabricType: 'omnipath',
      hosts: 3,
      switches: 2,
      links: 4,
      isls: 2,
    });
  });

  it('refuses a DOCTYPE with external entities in one line naming file, line and element', async () => {
    const path = join(TOPOLOGY, 'doctype-external.xml');
    const { code, stderr } = await run(['topology', 'parse', path]);
    expect(code).toBe(1);
    oneCleanLine(stderr);
    expect(stderr).toBe(
      `fabscope: ${path} (opareport topology): line 3: <!DOCTYPE>: a DOCTYPE with external or parameter entities is not read (an opareport file has none)\n`,
    );
  });

  it('a server given that file as its topology says so in one line too', async () => {
    const path = join(TOPOLOGY, 'doctype-external.xml');
    const { code, stderr } = await run(['emulator', '--topology', path]);
    expect(code).toBe(1);
    oneCleanLine(stderr);
    expect(stderr).toMatch(new RegExp(`^fabscope: ${path} \\(opareport topology\\): line 3: <!DOCTYPE>:`));
  });

  it('names the open element and the line where a cut file ends', async () => {
    const cut = readFileSync(join(TOPOLOGY, 'opaxlattopology.xml'), 'utf8')
      .split('\n')
      .slice(0, 20)
      .join('\n');
    const path = file('cut.xml', cut);
    const { code, stderr } = await run(['topology', 'parse', path]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `fabscope: ${path} (opareport topology): line 20: <Port>: the file ends inside <Port> (opened at line 18): expected </Port>; the file is cut short\n`,
    );
  });
});

describe('fabscope route --ibroute: OpenSM and ibroute dumps', () => {
  const route = (ibroute: string) =>
    run([
      'route',
      '--scenario',
      'ar-demo',
      '--ibroute',
      ibroute,
      '--from',
      'nodeA',
      '--to',
      'nodeC',
      '--json',
    ]);

  it("follows OpenSM's opensm-lfts.dump", async () => {
    const { code, stdout } = await route(join(TOPOLOGY, 'opensm-lfts.dump'));
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { engine: string; hops: { node: string }[] };
    expect(report.engine).toBe('ibroute');
    expect(report.hops.map((h) => h.node)).toEqual(['nodeA', 'edge1', 'core1', 'edge2', 'nodeC']);
  });

  it('refuses a truncated dump and escapes binary input, naming file and line', async () => {
    const dump = readFileSync(join(TOPOLOGY, 'opensm-lfts.dump'), 'utf8').split('\n');
    const truncated = file('truncated.dump', `${dump.slice(0, 14).join('\n')}\n`);
    const cut = await route(truncated);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(
      new RegExp(
        `^fabscope: ${truncated} \\(ibroute\\): line 15: the table of switch "edge2" \\(from line 11\\) ends without`,
      ),
    );
    const binary = file('binary.dump', Buffer.concat([Buffer.from(`${dump[0]}\n`), randomBytes]));
    const garbage = await route(binary);
    expect(garbage.code).toBe(1);
    oneCleanLine(garbage.stderr);
    expect(garbage.stderr).toMatch(new RegExp(`^fabscope: ${binary} \\(ibroute\\): line 2: expected`));
  });
});

describe('fabscope parse perfquery|opapmaquery refuses what is not their output', () => {
  const cases: [string, string | Buffer][] = [
    ['empty', ''],
    ['random-bytes', randomBytes],
    ['ibnetdiscover-p', readFileSync(join(COLLECTORS, 'ibnetdiscover/fabric-p.out'))],
  ];
  for (const tool of ['perfquery', 'opapmaquery']) {
    const other = tool === 'perfquery' ? 'opapmaquery/edge1-port1.out' : 'perfquery/stderr-between.out';
    it.each([...cases, ['other-tool', readFileSync(join(COLLECTORS, other))] as [string, Buffer]])(
      `${tool}: %s → exit 1 and the ParseError`,
      async (name, content) => {
        const path = file(`${tool}-${name}.out`, content);
        const { code, stdout, stderr } = await run(['parse', tool, path]);
        expect(code).toBe(1);
        expect(stdout).toBe('');
        oneCleanLine(stderr);
        expect(stderr).toMatch(new RegExp(`^fabscope: ${path} \\(${tool}\\): line \\d+: `));
      },
    );
  }

  it('parse perfquery reads -E receive error details with their LID', async () => {
    const { code, stdout } = await run(['parse', 'perfquery', join(COLLECTORS, 'perfquery/rcverr-E.out')]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).ports[0]).toMatchObject({ attribute: 'PortRcvErrorDetails', lid: 12, port: 7 });
  });
});
