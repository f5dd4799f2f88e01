import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdaptiveRoutingChange, EventRecord } from '@fabscope/contracts';
import { createEmulator, type EmulatorServer, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { CONFIG_CHECK, OpafmXmlAdaptiveRouting } from '../src/fabric-manager/opafm-xml-provider.ts';
import { NO_AR_ON_OPENSM, NO_ISLS, ProviderError } from '../src/fabric-manager/provider.ts';
import { type RunningApi, startApi } from '../src/server.ts';
import { buildAppWithEmulator, buildTestApp } from './helper.ts';

// Debian's opa-fm package: its sample opafm.xml and its validator (npm test installs it as root).
const DEBIAN_OPAFM_XML = '/etc/opa-fm/opafm.xml';
const fabric = buildScenario('ar-demo');
const base = {
  PORT: '0',
  FABSCOPE_SCENARIO: 'ar-demo',
  // Nothing listens there: these tests read and change adaptive routing, not counters.
  FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9/metrics',
};

/** The `<AdaptiveRouting>…</AdaptiveRouting>` bytes, and what comes before and after them. */
function split(file: Buffer) {
  const text = file.toString('latin1');
  const start = text.indexOf('<AdaptiveRouting>');
  const end = text.indexOf('</AdaptiveRouting>') + '</AdaptiveRouting>'.length;
  expect(start).toBeGreaterThan(0);
  return { before: file.subarray(0, start), section: text.slice(start, end), after: file.subarray(end) };
}

/** The JSON of an answer, as the contract types it. */
const json = async <T = { message: string }>(res: Response) => (await res.json()) as T;

const tagValue = (section: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(section)?.[1];

describe("adaptive routing from the site's opafm.xml (a copy of Debian's, checked by opa-fm's config_check)", () => {
  let dir: string;
  let xml: string;
  let original: Buffer;
  let api: RunningApi;
  const put = (body: unknown) =>
    fetch(`${api.url}/api/v1/adaptive-routing`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const backups = () => readdirSync(join(dir, 'etc')).filter((f) => f.endsWith('.bak'));

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'fabscope-opafm-')));
    mkdirSync(join(dir, 'etc'));
    xml = join(dir, 'etc', 'opafm.xml');
    copyFileSync(DEBIAN_OPAFM_XML, xml);
    original = readFileSync(xml);
    // The apply command: records how it was called; fails while a file named `fail` exists.
    const script = join(dir, 'reload-fm.sh');
    writeFileSync(
      script,
      [
        '#!/bin/sh',
        `printf '%s\\n' "$*" >> '${join(dir, 'apply.log')}'`,
        `if [ -e '${join(dir, 'fail')}' ]; then echo 'reload refused: fm0 is not running' >&2; exit 3; fi`,
        '',
      ].join('\n'),
    );
    chmodSync(script, 0o755);
    const config = configFromEnv({
      ...base,
      FABSCOPE_OPAFM_XML: xml,
      FABSCOPE_OPAFM_APPLY: `${script} reload "fm 0"`,
    });
    api = await startApi(config, fabric);
  });
  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("GET reads <Common><Sm><AdaptiveRouting> of Debian's file", async () => {
    const res = await fetch(`${api.url}/api/v1/adaptive-routing`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      enabled: false,
      lostRouteOnly: false,
      algorithm: 2,
      arFrequency: 0,
      threshold: 3,
      available: true,
      source: 'opafm.xml',
    });
  });

  it('refuses a threshold beyond 0..7 (400, the validator’s message), the file byte-identical', async () => {
    const res = await put({ threshold: 9 });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toMatch(/threshold must be <= 7/);
    expect(readFileSync(xml).equals(original)).toBe(true);
    expect(backups()).toEqual([]);
  });

  it("refuses what config_check rejects with config_check's own message, the file byte-identical", async () => {
    // The API's schema refuses this before any provider sees it; here the provider is asked directly.
    const provider = new OpafmXmlAdaptiveRouting({ path: xml });
    const error = await provider.set({ algorithm: 3 as 2 }, 'a test').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).statusCode).toBe(400);
    expect((error as ProviderError).message).toMatch(
      /^config_check refuses the change: Parse error at line \d+ in tag 'AdaptiveRouting': Adaptive Routing algorithm must be 0, 1 or 2\.$/,
    );
    expect(readFileSync(xml).equals(original)).toBe(true);
    expect(readdirSync(join(dir, 'etc'))).toEqual(['opafm.xml']); // no copy, no backup left behind
  });

  it('refuses 409 when the file fails config_check as it is (not the change’s fault), writing nothing', async () => {
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    const file = join(broken, 'opafm.xml');
    const text = original
      .toString('latin1')
      .replace('<SaRespTime>1s</SaRespTime>', '<SaRespTime>soon</SaRespTime>');
    writeFileSync(file, text, 'latin1');
    const error = await new OpafmXmlAdaptiveRouting({ path: file })
      .set({ enabled: true }, 'a test')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      statusCode: 409,
      message: `${file} fails config_check as it is: Parse error at line ${text.slice(0, text.indexOf('soon')).split('\n').length} in tag 'SaRespTime': Invalid contents: soon`,
    });
    expect(readFileSync(file, 'latin1')).toBe(text);
    expect(readdirSync(broken)).toEqual(['opafm.xml']);
  });

  it('PUT {"enabled":true,"threshold":7} writes a file config_check accepts; only the two values changed', async () => {
    const res = await put({ enabled: true, threshold: 7 });
    expect(res.status).toBe(200);
    const answer = await json<Required<AdaptiveRoutingChange>>(res);
    expect(answer).toMatchObject({
      enabled: true,
      threshold: 7,
      algorithm: 2,
      available: true,
      source: 'opafm.xml',
    });
    expect(answer.change).toMatchObject({ file: xml, written: true, validator: { ok: true, exitCode: 0 } });
    expect(answer.change.diff).toContain('-      <Enable>0</Enable>\n+      <Enable>1</Enable>\n');
    expect(answer.change.diff).toContain(
      '-      <Threshold>3</Threshold>\n+      <Threshold>7</Threshold>\n',
    );
    expect(answer.change.diff).toMatch(/^--- .*\n\+\+\+ .*\n@@ -\d+,\d+ \+\d+,\d+ @@\n/);

    // opa-fm's validator accepts the file as written (it throws on a non-zero exit).
    execFileSync(CONFIG_CHECK, ['-c', xml], { stdio: 'pipe' });
    const now = readFileSync(xml);
    const was = split(original);
    const is = split(now);
    expect(is.before.equals(was.before)).toBe(true);
    expect(is.after.equals(was.after)).toBe(true);
    expect(tagValue(is.section, 'Enable')).toBe('1');
    expect(tagValue(is.section, 'Threshold')).toBe('7');
    const lines = [was.section.split('\n'), is.section.split('\n')] as const;
    const changed = lines[0].flatMap((line, i) => (line === lines[1][i] ? [] : [line.trim()]));
    expect(lines[1]).toHaveLength(lines[0].length);
    expect(changed).toEqual(['<Enable>0</Enable>', '<Threshold>3</Threshold>']);

    // The file as it was is kept beside it.
    expect(answer.change.backup).toMatch(/\/opafm\.xml\.fabscope-\d{8}T\d{6}\.\d{3}Z\.bak$/);
    expect(readFileSync(answer.change.backup as string).equals(original)).toBe(true);
    // The apply command ran after the write, without a shell (the quoted word stayed one).
    expect(answer.change.apply).toMatchObject({ ok: true, exitCode: 0, timedOut: false });
    expect(readFileSync(join(dir, 'apply.log'), 'utf8')).toBe('reload fm 0\n');

    expect(await (await fetch(`${api.url}/api/v1/adaptive-routing`)).json()).toMatchObject({
      enabled: true,
      threshold: 7,
    });
    const from = new Date(Date.now() - 60_000).toISOString();
    const { events } = await json<{ events: EventRecord[] }>(
      await fetch(`${api.url}/api/v1/events?from=${from}`),
    );
    const change = events.filter((e) => e.kind === 'adaptive-routing');
    expect(change).toHaveLength(1);
    expect(change[0]?.detail).toBe(
      `enabled false → true, threshold 3 → 7 in ${xml}; by 127.0.0.1, no token; apply ok`,
    );
  });

  it("reports the apply command's failure with its exit status and stderr; the change is written", async () => {
    writeFileSync(join(dir, 'fail'), '');
    try {
      const res = await put({ lostRouteOnly: true });
      expect(res.status).toBe(200);
      const answer = await json<Required<AdaptiveRoutingChange>>(res);
      expect(answer).toMatchObject({ lostRouteOnly: true, enabled: true, threshold: 7 });
      expect(answer.change.written).toBe(true);
      expect(answer.change.apply).toMatchObject({
        ok: false,
        exitCode: 3,
        signal: null,
        stderr: 'reload refused: fm0 is not running\n',
      });
      expect(tagValue(split(readFileSync(xml)).section, 'LostRouteOnly')).toBe('1');
      const from = new Date(Date.now() - 60_000).toISOString();
      const { events } = await json<{ events: EventRecord[] }>(
        await fetch(`${api.url}/api/v1/events?from=${from}`),
      );
      expect(events.at(-1)).toMatchObject({ severity: 'warning' });
      expect(events.at(-1)?.detail).toMatch(/lostRouteOnly false → true .*; apply failed: exit 3$/);
    } finally {
      rmSync(join(dir, 'fail'));
    }
  });

  it('a PUT of the values already there writes, validates and applies nothing', async () => {
    const before = readFileSync(xml);
    const log = readFileSync(join(dir, 'apply.log'), 'utf8');
    const res = await put({ enabled: true });
    expect(res.status).toBe(200);
    expect((await json<AdaptiveRoutingChange>(res)).change).toEqual({
      file: xml,
      written: false,
      backup: null,
      diff: '',
      validator: null,
      apply: null,
    });
    expect(readFileSync(xml).equals(before)).toBe(true);
    expect(readFileSync(join(dir, 'apply.log'), 'utf8')).toBe(log);
  });
});

describe('where the fabric has no adaptive routing fabscope can manage', () => {
  let emulator: EmulatorServer;
  let api: RunningApi;

  beforeAll(async () => {
    emulator = await startEmulatorServer(
      createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: Date.now() }),
      { tickMs: 20, fromDateNow: true },
    );
    // An InfiniBand fabric with an emulator as its traffic source: the emulator is not its manager.
    const config = configFromEnv({
      ...base,
      FABSCOPE_FABRIC: 'infiniband',
      FABSCOPE_EMULATOR_URL: emulator.url,
    });
    api = await startApi(config, fabric);
  });
  afterAll(async () => {
    await api?.close();
    await emulator?.close();
  });

  it('on InfiniBand: GET says upstream OpenSM has none, PUT is refused 409 with the reason', async () => {
    const get = await fetch(`${api.url}/api/v1/adaptive-routing`);
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ available: false, reason: NO_AR_ON_OPENSM });
    const put = await fetch(`${api.url}/api/v1/adaptive-routing`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true, threshold: 7 }),
    });
    expect(put.status).toBe(409);
    expect((await json(put)).message).toBe('upstream OpenSM has no adaptive routing');
    // The emulator's own setting is untouched.
    expect(await (await fetch(`${emulator.url}/v1/adaptive-routing`)).json()).toMatchObject({
      enabled: false,
    });
  });

  it('on one switch (no inter-switch links), even with an emulator: none, and why', async () => {
    const single = buildScenario('single-switch-32');
    const lone = await startEmulatorServer(
      createEmulator({ fabric: single, tables: fatTreeRouting(single), startTimeMs: Date.now() }),
      {
        tickMs: 20,
        fromDateNow: true,
      },
    );
    const config = configFromEnv({
      ...base,
      FABSCOPE_SCENARIO: 'single-switch-32',
      FABSCOPE_EMULATOR_URL: lone.url,
    });
    const singleApi = await startApi(config, single);
    try {
      const get = await fetch(`${singleApi.url}/api/v1/adaptive-routing`);
      expect(await get.json()).toEqual({ available: false, reason: NO_ISLS });
      const put = await fetch(`${singleApi.url}/api/v1/adaptive-routing`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ enabled: true }),
      });
      expect(put.status).toBe(409);
    } finally {
      await singleApi.close();
      await lone.close();
    }
  });

  it('without a fabric manager: GET says none is configured, PUT is refused 409', async () => {
    const app = await buildTestApp();
    try {
      const get = await app.inject('/api/v1/adaptive-routing');
      expect(get.statusCode).toBe(200);
      expect(get.json()).toEqual({
        available: false,
        reason: expect.stringMatching(/^no fabric manager is configured \(FABSCOPE_OPAFM_XML\)/),
      });
      const put = await app.inject({
        method: 'PUT',
        url: '/api/v1/adaptive-routing',
        payload: { enabled: true },
      });
      expect(put.statusCode).toBe(409);
      expect(put.json().message).toBe(get.json().reason);
    } finally {
      await app.close();
    }
  });

  it("with the demo's emulator: its settings, available, from the emulator", async () => {
    const { app, stop } = await buildAppWithEmulator(fabric);
    try {
      const get = await app.inject('/api/v1/adaptive-routing');
      expect(get.json()).toMatchObject({ available: true, source: 'emulator', enabled: false });
      const put = await app.inject({
        method: 'PUT',
        url: '/api/v1/adaptive-routing',
        payload: { enabled: true, threshold: 7 },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toMatchObject({ available: true, source: 'emulator', enabled: true, threshold: 7 });
      expect(put.json().change).toBeUndefined();
    } finally {
      await stop();
    }
  });
});
