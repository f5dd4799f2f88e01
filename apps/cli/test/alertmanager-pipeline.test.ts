import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configFromEnv } from '@fabscope/api';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

/** What Alertmanager's webhook posts (version 4). */
interface Notification {
  status: 'firing' | 'resolved';
  receiver: string;
  groupLabels: Record<string, string>;
  alerts: {
    status: 'firing' | 'resolved';
    labels: Record<string, string>;
    annotations: Record<string, string>;
  }[];
}

// Alarms that notify someone (issue #26): a link-down fault in the emulator → the shipped
// FabscopeLinkDown alert fires in the demo's Prometheus → Alertmanager (Debian's, real) posts it to
// a site's webhook receiver (here a tiny HTTP server, the boundary) → repaired → resolved.
describe('alerts through Alertmanager to a webhook receiver', () => {
  let demo: RunningDemo | undefined;
  let receiver: Server | undefined;
  const received: Notification[] = [];
  afterAll(async () => {
    await demo?.stop();
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  });

  const api = async (path: string, method: string, body?: unknown) => {
    const response = await fetch(`${demo?.apiUrl}/api/v1${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(200);
    return response.json();
  };
  const linkDown = (status: 'firing' | 'resolved') =>
    received.find(
      (n) => n.status === status && n.alerts.some((a) => a.labels.alertname === 'FabscopeLinkDown'),
    );

  it('a link-down fault reaches the receiver as firing, and as resolved after the repair', async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        if (request.method === 'POST' && request.url === '/site-alerts')
          received.push(JSON.parse(body) as Notification);
        response.writeHead(request.url === '/site-alerts' ? 200 : 404).end();
      });
    });
    await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
    const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/site-alerts`;

    const config = { ...configFromEnv({}), scenario: 'ar-demo', host: '127.0.0.1', port: 0 };
    demo = await startDemo({
      config,
      prometheus: true,
      // The shipped route, notifying within a second or two instead of 10 s / 1 m.
      alertmanager: { webhookUrl, groupWait: '1s', groupInterval: '1s', resolveTimeout: '10s' },
    });
    expect(demo.alertmanagerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Prometheus knows its Alertmanager.
    await eventually(async () => {
      const answer = await fetch(`${demo?.prometheusUrl}/api/v1/alertmanagers`);
      const { data } = (await answer.json()) as { data: { activeAlertmanagers: { url: string }[] } };
      expect(data.activeAlertmanagers.map((a) => a.url)).toEqual([`${demo?.alertmanagerUrl}/api/v2/alerts`]);
    });

    const started = Date.now();
    await api('/faults', 'POST', { type: 'link-down', link: 'edge1/4--core2/1' });
    // Prometheus' first sample (~6 s), the rule's `for: 10s`, Alertmanager's group_wait.
    const firing = await eventually(async () => {
      const found = linkDown('firing');
      expect(found, JSON.stringify(received)).toBeDefined();
      return found as Notification;
    }, 45_000);
    const firedAfterMs = Date.now() - started;
    expect(firing.receiver).toBe('site-webhook');
    const ends = firing.alerts
      .filter((a) => a.labels.alertname === 'FabscopeLinkDown' && a.status === 'firing')
      .map(
        (a) => `${a.labels.node_name}/${a.labels.port}--${a.labels.remote_node_name}/${a.labels.remote_port}`,
      );
    // Both ends of the down link, grouped into one notification (group_by alertname, fabric), and nothing else.
    expect(ends.sort()).toEqual(['core2/1--edge1/4', 'edge1/4--core2/1']);
    expect(firing.groupLabels).toEqual({ alertname: 'FabscopeLinkDown', fabric: 'ar-demo' });
    expect(firing.alerts[0]?.labels.severity).toBe('critical');
    expect(firing.alerts[0]?.annotations.summary).toMatch(/^Link down: /);
    expect(linkDown('resolved')).toBeUndefined();

    await api('/faults', 'DELETE');
    const resolved = await eventually(async () => {
      const found = linkDown('resolved');
      expect(found, JSON.stringify(received.map((n) => n.status))).toBeDefined();
      return found as Notification;
    }, 30_000);
    expect(resolved.alerts.every((a) => a.status === 'resolved')).toBe(true);
    process.stderr.write(
      `alertmanager pipeline: firing after ${firedAfterMs} ms, resolved after ${Date.now() - started} ms\n`,
    );
  }, 90_000);
});
