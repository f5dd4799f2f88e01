import { buildScenario } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import { LinkStateEvents } from '../src/store/link-state-events.ts';
import { linkStateChanges } from '../src/store/prometheus-events.ts';

const fabric = buildScenario('ar-demo');
const index = new LinkIndex(fabric);
const guid = (name: string) => fabric.nodeByName.get(name)?.guid as string;

/** Per link, its link-state events' details in time order. */
function byLink(events: readonly { kind: string; subject: string; detail: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of events) {
    if (e.kind !== 'link-state') continue;
    out.set(e.subject, [...(out.get(e.subject) ?? []), e.detail]);
  }
  return out;
}

describe('every link down has its link up', () => {
  it('for any sequence of states and unknowns: per link, downs and ups alternate, one event per change', () => {
    const links = [...new Set(index.channels.map((c) => c.fixed.linkId))];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(-1, 0, 1), { minLength: links.length, maxLength: links.length }), {
          maxLength: 30,
        }),
        (frames) => {
          const tracker = new LinkStateEvents(index);
          const events = frames.flatMap((states, t) => {
            // Both directions of a link carry its state, one of them sometimes unknown.
            const up = new Int8Array(index.channels.length);
            index.channels.forEach((ch, c) => {
              const state = states[links.indexOf(ch.fixed.linkId)] as number;
              up[c] = c % 3 === 0 ? -1 : state;
            });
            return tracker.changes(up, t);
          });
          for (const details of byLink(events).values())
            details.forEach((d, i) => {
              if (i > 0) expect(d).not.toBe(details[i - 1]);
            });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a switch that vanishes (its links down, then unreachable) and returns gives a link up per link down', async () => {
    const clock = { now: 1_700_000_000_000 };
    const phase = { name: 'up' as 'up' | 'down' | 'gone' };
    const edge1Links = new Set(
      index.channels.filter((c) => c.fixed.from.node === 'edge1').map((c) => c.fixed.linkId),
    );
    const log = new MemoryEventLog();
    const store = new EmbeddedStore({
      targets: ['http://collector:9466/metrics'],
      scrapeIntervalMs: 1000,
      now: () => clock.now,
      events: log,
      fetch: (async () => {
        const lines: string[] = [];
        for (const { fixed } of index.channels) {
          const { from } = fixed;
          const near = from.node === 'edge1';
          const far = fixed.to.node === 'edge1';
          // Unlinked: edge1 answers nothing, and the ports cabled to it read down, then are unreachable too.
          if (near && phase.name !== 'up') continue;
          if (far && phase.name === 'gone') continue;
          const labels = `{fabric="ar-demo",node_guid="${guid(from.node)}",node_name="${from.node}",port="${from.port}"}`;
          lines.push(`fabscope_port_data_transmitted_bytes_total${labels} ${clock.now}`);
          lines.push(`fabscope_port_link_up${labels} ${far && phase.name === 'down' ? 0 : 1}`);
        }
        return new Response(`${lines.join('\n')}\n`);
      }) as typeof fetch,
    });
    const history = store.timeQueries(index);
    const scrape = async (seconds: number) => {
      for (let s = 0; s < seconds; s++) {
        await store.scrapeOnce();
        await history.settled();
        clock.now += 1000;
      }
    };
    try {
      await scrape(3);
      phase.name = 'down';
      await scrape(2);
      phase.name = 'gone';
      await scrape(10);
      phase.name = 'up';
      await scrape(3);
      const events = byLink(log.list(0, clock.now));
      expect([...events.keys()].sort()).toEqual([...edge1Links].sort());
      for (const [link, details] of events) expect(details, link).toEqual(['link down', 'link up']);
    } finally {
      await store.close();
    }
  });

  it('from the TSDB: a link whose two ends change at different instants is one link down and one link up', () => {
    const reading = (port: string, timeMs: number, up: boolean, first = false) => ({
      linkId: 'a/1--b/1',
      port,
      timeMs,
      up,
      first,
    });
    const events = linkStateChanges([
      reading('a/1', 0, true, true),
      reading('b/1', 0, true, true),
      reading('a/1', 1000, false),
      reading('b/1', 2000, false),
      reading('a/1', 5000, true),
      reading('b/1', 6000, true),
    ]);
    expect(events.map((e) => [e.timeMs, e.detail])).toEqual([
      [1000, 'link down'],
      [6000, 'link up'],
    ]);
  });
});
