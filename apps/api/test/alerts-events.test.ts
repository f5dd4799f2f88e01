import { buildScenario } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { PrometheusStore } from '../src/store/prometheus.ts';
import { buildTestApp } from './helper.ts';

const NOW = Date.parse('2026-11-23T09:30:00Z');

/** A Prometheus answering PromQL with nothing and /api/v1/alerts with the rules' alerts. */
const fakePrometheus = (async (input: string | URL | Request) => {
  const url = new URL(String(input instanceof Request ? input.url : input));
  if (url.pathname === '/api/v1/alerts') {
    return Response.json({
      status: 'success',
      data: {
        alerts: [
          {
            labels: {
              alertname: 'FabscopePortErrorsIncreasing',
              severity: 'warning',
              node_name: 'edge1',
              port: '4',
            },
            annotations: { summary: 'Errors increasing on edge1 port 4' },
            state: 'firing',
            activeAt: new Date(NOW - 60_000).toISOString(),
          },
          {
            labels: { alertname: 'FabscopeLinkDown', severity: 'critical', node_name: 'core2', port: '1' },
            annotations: { summary: 'Link down' },
            state: 'pending',
            activeAt: new Date(NOW - 5000).toISOString(),
          },
          {
            labels: { alertname: 'FabscopeCollectorDown', severity: 'critical', instance: '127.0.0.1:9466' },
            annotations: { summary: 'collector cannot read its fabric' },
            state: 'firing',
            activeAt: new Date(NOW - 30_000).toISOString(),
          },
        ],
      },
    });
  }
  return Response.json({ status: 'success', data: { resultType: 'vector', result: [] } });
}) as typeof fetch;

describe('with Prometheus, firing alerts of deploy/prometheus/rules are events', () => {
  it('firing ones (not pending) at the time they started, with the rule severity and the port', async () => {
    const fabric = buildScenario('ar-demo');
    const store = new PrometheusStore({ url: 'http://prometheus:9090', fetch: fakePrometheus });
    const app = await buildTestApp({ fabric, store });
    try {
      const from = new Date(NOW - 120_000).toISOString();
      const to = new Date(NOW).toISOString();
      const res = await app.inject({ method: 'GET', url: `/api/v1/events?from=${from}&to=${to}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().events.filter((e: { kind: string }) => e.kind === 'alert')).toEqual([
        {
          time: new Date(NOW - 60_000).toISOString(),
          kind: 'alert',
          subject: 'edge1/4',
          detail: 'FabscopePortErrorsIncreasing firing: Errors increasing on edge1 port 4',
          severity: 'warning',
        },
        {
          time: new Date(NOW - 30_000).toISOString(),
          kind: 'alert',
          subject: '127.0.0.1:9466',
          detail: 'FabscopeCollectorDown firing: collector cannot read its fabric',
          severity: 'critical',
        },
      ]);
      // Outside the window asked: not listed.
      const early = await app.inject({
        method: 'GET',
        url: `/api/v1/events?from=${new Date(NOW - 50_000).toISOString()}&to=${to}`,
      });
      expect(early.json().events.map((e: { detail: string }) => e.detail)).toEqual([
        'FabscopeCollectorDown firing: collector cannot read its fabric',
      ]);
    } finally {
      await app.close();
    }
  });
});
