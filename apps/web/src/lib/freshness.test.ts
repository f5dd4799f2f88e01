import { describe, expect, it } from 'vitest';
import { assessFreshness } from './freshness.ts';

describe('assessFreshness', () => {
  it('waits before the first message', () => {
    expect(
      assessFreshness({ nowMs: 1000, receivedAtMs: null, lastSampleAgeSeconds: null, staleLinkCount: 0 })
        .state,
    ).toBe('waiting');
  });

  it('adds the time since the message to the server-reported age', () => {
    const f = assessFreshness({
      nowMs: 10_700,
      receivedAtMs: 10_000,
      lastSampleAgeSeconds: 0.5,
      staleLinkCount: 0,
    });
    expect(f.state).toBe('fresh');
    expect(f.dataAgeSeconds).toBeCloseTo(1.2, 9);
    expect(f.silenceSeconds).toBeCloseTo(0.7, 9);
  });

  it('goes stale when the stream is silent for more than 3 s', () => {
    const f = assessFreshness({
      nowMs: 13_100,
      receivedAtMs: 10_000,
      lastSampleAgeSeconds: 0.2,
      staleLinkCount: 0,
    });
    expect(f.state).toBe('stale');
    expect(f.reasons).toContain('the live stream is not delivering');
  });

  it('goes stale when the newest sample is older than 5 s, or links are stale, or no sample exists', () => {
    const base = { nowMs: 10_000, receivedAtMs: 10_000 };
    expect(assessFreshness({ ...base, lastSampleAgeSeconds: 5.5, staleLinkCount: 0 }).state).toBe('stale');
    expect(assessFreshness({ ...base, lastSampleAgeSeconds: 4.5, staleLinkCount: 0 }).state).toBe('fresh');
    const links = assessFreshness({ ...base, lastSampleAgeSeconds: 1, staleLinkCount: 2 });
    expect(links.state).toBe('stale');
    expect(links.reasons).toContain('2 link directions have no recent sample');
    expect(assessFreshness({ ...base, lastSampleAgeSeconds: null, staleLinkCount: 0 }).state).toBe('stale');
  });

  it("follows the server's policy: a 10 s tick is not silent after 3 s, data 20 s old is fresh under a 25 s limit", () => {
    const policy = { intervalMs: 10_000, staleAfterSeconds: 25 };
    const slow = assessFreshness({
      nowMs: 18_000,
      receivedAtMs: 10_000,
      lastSampleAgeSeconds: 12,
      staleLinkCount: 0,
      policy,
    });
    expect(slow.state).toBe('fresh');
    const silent = assessFreshness({
      nowMs: 31_500,
      receivedAtMs: 10_000,
      lastSampleAgeSeconds: 1,
      staleLinkCount: 0,
      policy,
    });
    expect(silent.reasons).toContain('the live stream is not delivering');
    const old = assessFreshness({
      nowMs: 10_000,
      receivedAtMs: 10_000,
      lastSampleAgeSeconds: 26,
      staleLinkCount: 0,
      policy,
    });
    expect(old.reasons).toEqual(['the metrics store has no recent sample']);
    // A tighter policy from the server wins too.
    const tight = { intervalMs: 500, staleAfterSeconds: 2 };
    expect(
      assessFreshness({
        nowMs: 10_000,
        receivedAtMs: 10_000,
        lastSampleAgeSeconds: 3,
        staleLinkCount: 0,
        policy: tight,
      }).state,
    ).toBe('stale');
  });
});
