import type { LinkDirectionState } from '@fabscope/contracts';
import { buildScenario } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { HealthWatch } from '../src/events/health-watch.ts';
import { eventsByDirection } from '../src/jobs/report/direction-events.ts';
import { UNKNOWN_CATEGORIES, UNKNOWN_ERRORS } from '../src/lib/link-errors.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates } from '../src/lib/port-rates.ts';
import { directionState, frameFromStates } from './oracles/object-path.ts';

const index = new LinkIndex(buildScenario('ar-demo'));
const ports = new Map([...index.portKeys].map((k) => [k, emptyPortRates()]));
const ERRING = 'edge1/4->core2/1';

/** A tick's frame with the integrity category of `ERRING` at `value` × its threshold, every other at 0. */
function frame(value: number) {
  const states: LinkDirectionState[] = index.channels.map(({ fixed }) =>
    directionState(fixed, {
      bytesPerSecond: 0,
      packetsPerSecond: 0,
      transmitWaitTicksPerSecond: 0,
      transmitWaitFraction: 0,
      linkUp: true,
      errors: UNKNOWN_ERRORS,
      categories: { ...UNKNOWN_CATEGORIES, integrity: fixed.id === ERRING ? value : 0 },
    }),
  );
  return frameFromStates(index, states, 0, ports);
}

// The report read error thresholds by a category spelt `Integrity`; the health watch writes `integrity …`,
// so on a served fabric a direction's errors were never counted (found on the ibsim lab, issue 42).
describe("a job report's errors: the health watch's own threshold events", () => {
  it('counts an integrity threshold the watch raised, and the time until it fell back under', () => {
    const log = new MemoryEventLog();
    const watch = new HealthWatch(log, index);
    for (const [t, value] of [
      [1000, 0],
      [2000, 4],
      [3000, 4],
      [4000, 0.1],
      [15_000, 0.1],
    ] as const)
      watch.observe(t, frame(value));
    const events = log.list(0, 20_000);
    expect(events.filter((e) => e.kind === 'threshold').map((e) => e.severity)).toEqual(['error', 'info']);
    const cleared = events.at(-1)?.timeMs as number;
    const seen = eventsByDirection([ERRING, 'edge1/3->core1/1'], () => undefined, events, 0, 20_000);
    expect(seen.get(ERRING)).toMatchObject({
      errorsRaised: 1,
      erroredSeconds: (cleared - 2000) / 1000,
      firstErrorMs: 2000,
    });
    expect(seen.get('edge1/3->core1/1')).toMatchObject({ errorsRaised: 0, erroredSeconds: 0 });
  });
});
