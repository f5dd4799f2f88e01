import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { configFromEnv } from '@fabscope/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/free-port.ts';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { startSeedPairs } from './seed-pairs.ts';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));

/** `fabscope top` as a user runs it; resolves with its output and exit code, whatever the code. */
async function top(args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'top', ...args], {
      env: { ...process.env, COLUMNS: '', LINES: '', ...env },
      timeout: 20_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Whether the server answers time questions (GET /summary/history, from the time API). */
async function keepsHistory(apiUrl: string): Promise<boolean> {
  const from = new Date(Date.now() - 10_000).toISOString();
  const response = await fetch(`${apiUrl}/api/v1/summary/history?from=${encodeURIComponent(from)}`);
  await response.body?.cancel();
  return response.status === 200;
}

/** The first ranked row: the line under the table header. */
function firstRankedRow(screen: string): string {
  const lines = screen.split('\n');
  const header = lines.findIndex((l) => /^ +# +Link direction/.test(l));
  return header < 0 ? '' : (lines[header + 1] ?? '');
}

// ar-demo with seed 002's pairs (nodeA→nodeC, nodeB→nodeD): both cross edge1→core2 under static
// routing, so that ISL direction is full and its senders wait for credit.
describe('fabscope top against the ar-demo pipeline with the seed pairs running', () => {
  let demo: RunningDemo;
  beforeAll(async () => {
    demo = await startDemo({ config: { ...configFromEnv({}), host: '127.0.0.1', port: 0 } });
    await eventually(async () => {
      const health = (await (await fetch(`${demo.apiUrl}/api/v1/health`)).json()) as { status: string };
      expect(health.status).toBe('ok');
    }, 30_000);
    await startSeedPairs(demo.apiUrl);
  }, 60_000);
  afterAll(async () => {
    await demo?.stop();
  });

  it('--once prints one 80×24 screen, no escape codes, edge1→core2 at 99 % on the first ranked row', async () => {
    const result = await eventually(async () => {
      const answer = await top(['--once', '--url', demo.apiUrl]);
      expect(answer.stderr).toBe('');
      expect(answer.code).toBe(0);
      const row = firstRankedRow(answer.stdout);
      const match = /^ {2}1 {3}edge1\/4 → core2\/1 +ISL +(\d+\.\d) % +(\S+ GB\/s)/.exec(row);
      expect(match, row).not.toBeNull();
      expect(Math.round(Number(match?.[1]))).toBe(99);
      // The rest of the screen at the same steady state (rates settle over the store's window).
      const lines = answer.stdout.split('\n');
      expect(lines[1]).toMatch(/^Store embedded {3}Data age \d+(\.\d)? s fresh/);
      // The pair total: 12.2–12.5 GB/s, as the pipeline test checks through the API.
      expect(lines[2]).toMatch(
        /^Host transmit 12\.[2-5]\d GB\/s {3}Link directions 8 ISL, 8 host, 0 unknown/,
      );
      // The PM categories as the API counts them: Integrity a count (0 with no errors), never a dash.
      expect(lines[3]).toMatch(
        /^Errors ≥ thr\. Integ 0 {2}Congst \d+ {2}SmaCg \S+ {2}Bubbl \S+ {2}Secur 0 {2}Routg 0/,
      );
      expect(lines[4]).toMatch(/^Wait {6}worst wait [45]\d\.\d % edge1\/4 → core2\/1$/);
      expect(lines[7]).toMatch(/^ISLs +6( +0){8} +2$/);
      return answer;
    }, 45_000);
    const lines = result.stdout.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(25);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(result.stdout).not.toContain('\x1b');
    expect(lines[0]).toMatch(/^fabscope top {2}ar-demo \(omnipath\)/);
    // One screen printed is read, not driven: no key footer.
    expect(lines[23]?.trim()).toBe('');
    expect(result.stdout).not.toMatch(/q quit|\? help/);
  }, 60_000);

  it('--once counts Integrity from the API: errors injected on a cable show as directions over threshold', async () => {
    const inject = await fetch(`${demo.apiUrl}/api/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'symbol-errors', link: 'edge1/3--core1/1', rate: 1000 }),
    });
    expect(inject.status).toBeLessThan(300);
    try {
      await eventually(async () => {
        const answer = await top(['--once', '--url', demo.apiUrl]);
        expect(answer.code).toBe(0);
        const integrity = /Integ (\d+)/.exec(answer.stdout.split('\n')[3] ?? '');
        expect(Number(integrity?.[1])).toBeGreaterThan(0);
      }, 45_000);
    } finally {
      await fetch(`${demo.apiUrl}/api/v1/faults`, { method: 'DELETE' });
    }
  }, 60_000);

  it('--once follows COLUMNS × LINES when stdout is not a terminal', async () => {
    const answer = await top(['--once', '--url', demo.apiUrl], { COLUMNS: '120', LINES: '30' });
    // The last lines (message, no key footer) are blank: only the final newline is cut.
    const lines = answer.stdout.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(30);
    expect([...(lines[0] ?? '')].length).toBe(120);
  }, 45_000);

  it('without --once into a pipe: plain screens one after another, and a closed pipe ends it quietly', async () => {
    const child = spawn(process.execPath, [CLI, 'top', '--url', demo.apiUrl, '--interval', '0.5'], {
      env: { ...process.env, COLUMNS: '', LINES: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit');
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          // Two screens with their data: the reader has seen enough and goes away.
          if ((stdout.match(/^ {2}1 {3}edge1\/4 → core2\/1/gm) ?? []).length >= 2) {
            child.stdout.destroy();
            resolve();
          }
        });
        child.once('exit', () => reject(new Error(`top ended first:\n${stdout}\n${stderr}`)));
      });
      const [code] = await exited;
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).not.toContain('\x1b');
      const screens = stdout.split('\n\n').filter((s) => s.startsWith('fabscope top'));
      expect(screens.length).toBeGreaterThanOrEqual(2);
    } finally {
      child.kill();
    }
  }, 45_000);

  it('--once on a server that cannot be reached: a clear message and exit status 1', async () => {
    const port = await freePort();
    const answer = await top(['--once', '--url', `http://127.0.0.1:${port}`]);
    expect(answer.code).toBe(1);
    expect(answer.stdout).toBe('');
    expect(answer.stderr).toMatch(
      new RegExp(`^fabscope top: cannot reach http://127\\.0\\.0\\.1:${port}/api/v1/`),
    );
    expect(answer.stderr).toContain('ECONNREFUSED');
  }, 45_000);

  it('refuses a bad --url, --interval or an unknown option', async () => {
    const url = await top(['--once', '--url', 'ftp://x']);
    expect(url.code).toBe(1);
    expect(url.stderr).toContain('--url must be an http:// or https:// address, got "ftp://x"');
    const interval = await top(['--once', '--interval', 'soon']);
    expect(interval.code).toBe(1);
    expect(interval.stderr).toContain('--interval must be seconds between 0.2 and 3600, got "soon"');
    const unknown = await top(['--bogus']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      "fabscope: Unknown option '--bogus'\nusage: fabscope top [--url URL] [--once] [--interval S] [--token T] [--unit bytes|bits]\n",
    );
  }, 45_000);

  it('in a real terminal (tmux): sort, ISL/host filter, history keys, resizes, q restores the terminal', async () => {
    const socket = `fabscope-top-test-${process.pid}`;
    const tmux = async (...args: string[]) =>
      (await run('tmux', ['-L', socket, '-f', '/dev/null', ...args])).stdout;
    const screen = () => tmux('capture-pane', '-p', '-t', 'top');
    /** Polls the pane until `check` passes on what it shows. */
    const until = (check: (text: string, lines: string[]) => void, timeoutMs = 15_000) =>
      eventually(
        async () => {
          const text = await screen();
          check(text, text.split('\n'));
          return text;
        },
        timeoutMs,
        100,
      );
    // The shell records top's exit status once top has ended.
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-top-'));
    const statusFile = join(dir, 'status');
    const command = `${process.execPath} ${CLI} top --url ${demo.apiUrl} --interval 0.5; echo $? > ${statusFile}`;
    try {
      await tmux(
        'start-server',
        ';',
        'set-option',
        '-g',
        'remain-on-exit',
        'on',
        ';',
        'new-session',
        '-d',
        '-s',
        'top',
        '-x',
        '100',
        '-y',
        '30',
        command,
      );
      await until((text, lines) => {
        expect(text).toContain('Ranked by Utilization (highest first) · all links');
        expect(firstRankedRow(text)).toMatch(/^ {2}1 {3}edge1\/4 → core2\/1 +ISL +9\d\.\d %/);
        // The title spans the whole 100 columns: live mode and the tick's time at the right edge.
        expect(lines[0]).toMatch(/ Live \d\d:\d\d:\d\dZ$/);
        expect([...(lines[0] ?? '')].length).toBe(100);
      });
      expect(await tmux('display-message', '-p', '-t', 'top', '#{alternate_on}')).toBe('1\n');

      await tmux('send-keys', '-t', 'top', 'c');
      await until((text) => {
        expect(text).toContain('Ranked by Packets (highest first)');
        expect(firstRankedRow(text)).toMatch(/ISL +9\d\.\d % +12\.\d\d GB\/s +1\.\d\d Mp\/s/);
      });

      await tmux('send-keys', '-t', 'top', '2');
      await until((text, lines) => {
        expect(text).toContain('Ranked by Packets (highest first) · host links · rows 1–8');
        const rows = lines.filter((l) => /^ +\d+ {3}\S/.test(l));
        expect(rows).toHaveLength(8);
        for (const row of rows) expect(row).toMatch(/ host /);
      });

      await tmux('send-keys', '-t', 'top', '1');
      await until((text, lines) => {
        expect(text).toContain('· ISLs · rows 1–8');
        const rows = lines.filter((l) => /^ +\d+ {3}\S/.test(l));
        expect(rows).toHaveLength(8);
        for (const row of rows) expect(row).toMatch(/ ISL /);
      });

      if (await keepsHistory(demo.apiUrl)) {
        // opatop's history keys: back a tick (Hist), bookmark it (Bkmk), live, recall the bookmark.
        await tmux('send-keys', '-t', 'top', 'r');
        await until((_text, lines) => expect(lines[0]).toMatch(/ Hist \d\d:\d\d:\d\dZ {2}Now: /));
        await tmux('send-keys', '-t', 'top', 'B');
        const bookmarked = await until((_text, lines) => expect(lines[0]).toMatch(/ Bkmk \d\d:\d\d:\d\dZ/));
        const tick = / Bkmk (\S+)/.exec(bookmarked.split('\n')[0] ?? '')?.[1];
        await tmux('send-keys', '-t', 'top', 'L');
        await until((_text, lines) => expect(lines[0]).toMatch(/ Live /));
        await tmux('send-keys', '-t', 'top', 'b');
        await until((_text, lines) => expect(lines[0]).toContain(` Bkmk ${tick}`));
        await tmux('send-keys', '-t', 'top', 'L');
        await until((_text, lines) => expect(lines[0]).toMatch(/ Live /));
      } else {
        await tmux('send-keys', '-t', 'top', 'r');
        await until((_text, lines) => {
          // The message line just above the key line.
          expect(lines[28]?.trim()).toBe('no history on this server');
          expect(lines[0]).toMatch(/ Live /);
        });
      }

      await tmux('resize-window', '-t', 'top', '-x', '120', '-y', '40');
      await until((_text, lines) => {
        expect([...(lines[0] ?? '')].length).toBe(120);
        expect(lines[39]).toMatch(/^q quit {2}c\/C sort/);
      });

      await tmux('resize-window', '-t', 'top', '-x', '70', '-y', '20');
      await until((text) => {
        expect(text).toContain('fabscope top needs at least 80×24; this terminal is 70×20.');
      });

      await tmux('resize-window', '-t', 'top', '-x', '100', '-y', '30');
      await until((text) => expect(text).toContain('Ranked by Packets (highest first) · ISLs'));

      await tmux('send-keys', '-t', 'top', 'q');
      await eventually(
        async () => {
          expect(readFileSync(statusFile, 'utf8')).toBe('0\n');
          // Raw mode and the alternate screen are given back.
          expect(await tmux('display-message', '-p', '-t', 'top', '#{pane_dead} #{alternate_on}')).toBe(
            '1 0\n',
          );
        },
        10_000,
        100,
      );
    } finally {
      await tmux('kill-server').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
