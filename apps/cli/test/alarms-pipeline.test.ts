import { configFromEnv } from '@fabscope/api';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

interface AlarmAnswer {
  id: string;
  state: string;
  category: string;
  linkKind: string;
  count: number;
  summary: string;
  acknowledged: { by: string; at: string } | null;
}

// Alarms that clear (issue #26): an all-to-all on one switch congests every host link; the
// dashboard gets a grouped alarm or two, not a storm, and they clear when the traffic stops.
describe('alarms through the whole pipeline', () => {
  let demo: RunningDemo | undefined;
  afterEach(async () => {
    await demo?.stop();
    demo = undefined;
  });
  const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(`${demo?.apiUrl}/api/v1${path}`, init);
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };
  const post = <T>(path: string, body: unknown) =>
    api<T>(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('an all-to-all on single-switch-32 raises at most two active alarms, acknowledged, cleared when it stops', async () => {
    const config = { ...configFromEnv({}), scenario: 'single-switch-32', host: '127.0.0.1', port: 0 };
    demo = await startDemo({ config, prometheus: false });
    expect((await api<{ alarms: AlarmAnswer[] }>('/alarms')).alarms).toEqual([]);
    await post('/traffic', { pattern: 'all-to-all' });
    const active = await eventually(async () => {
      const { alarms } = await api<{ alarms: AlarmAnswer[] }>('/alarms');
      expect(alarms.length).toBeGreaterThan(0);
      return alarms;
    }, 30_000);
    expect(active.length).toBeLessThanOrEqual(2);
    const [first] = active as [AlarmAnswer];
    expect(first.count).toBeGreaterThan(1);
    expect(first.summary).toMatch(/^\d+ (host link|ISL) directions? over the \w+ threshold$/);
    const acked = await post<AlarmAnswer>(`/alarms/${encodeURIComponent(first.id)}/acknowledge`, {
      by: 'alice',
    });
    expect(acked.acknowledged?.by).toBe('alice');

    await api('/traffic', { method: 'DELETE' });
    await eventually(
      async () => expect((await api<{ alarms: AlarmAnswer[] }>('/alarms')).alarms).toEqual([]),
      30_000,
    );
    const { alarms: all } = await api<{ alarms: AlarmAnswer[] }>('/alarms?state=all');
    const cleared = all.find((a) => a.id === first.id);
    expect(cleared).toMatchObject({ state: 'cleared', count: 0, acknowledged: { by: 'alice' } });
    const from = new Date(Date.now() - 120_000).toISOString();
    const { events } = await api<{ events: { kind: string; detail: string }[] }>(
      `/events?from=${from}&limit=5000`,
    );
    const alarmEvents = events.filter((e) => e.kind === 'alarm').map((e) => e.detail);
    expect(alarmEvents.some((d) => d.startsWith('alarm raised: '))).toBe(true);
    expect(alarmEvents.some((d) => d.startsWith('alarm acknowledged by alice: '))).toBe(true);
    expect(alarmEvents.some((d) => d.startsWith('alarm cleared: '))).toBe(true);
  }, 90_000);
});
