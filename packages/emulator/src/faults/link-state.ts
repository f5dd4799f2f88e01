import { ERROR_RATE_FAULTS, type ErrorRateFault, type FaultInfo } from '@fabscope/contracts';
import type { Fabric, FabricNode } from '@fabscope/topology';
import type { PortGauges } from '../port-counters.ts';
import type { ResolvedFault } from './faults.ts';

/** LinkQualityIndicator from the symbol-error rate: 5 clean, 4 from 1/s, 3 from 100/s, 2 from 1000/s. */
function qualityOfSymbolRate(perSecond: number): number {
  if (perSecond >= 1000) return 2;
  if (perSecond >= 100) return 3;
  if (perSecond >= 1) return 4;
  return 5;
}

/** What the rest of the emulator does when a fault changes something. */
export interface FaultEffects {
  /** A link went down or came up (`fromFlap`: it came back from a flap, i.e. retrained). */
  linkChanged(link: number, up: boolean, fromFlap: boolean): void;
  /** A node rebooted: its counters start again from 0. */
  restartNode(node: FabricNode): void;
  /** Another tool cleared a port's counters. */
  clearPort(out: number): void;
  errorsChanged(): void;
}

interface Flap {
  id: string;
  periodMs: number;
  downMs: number;
  nextMs: number;
  sinceMs: number;
}

/** Which links are up and why not (fault, flap, switch down), and every port's symbol-error rate. */
export class LinkState implements PortGauges {
  readonly linkUp: Uint8Array;
  /** Symbol errors per second, per port (output channel). */
  readonly symbolRate: Float64Array;
  /** Per ERROR_RATE_FAULTS entry, its errors per second per port. */
  readonly directRates: Float64Array[];
  /** LinkQualityIndicator per port: from a link-quality fault, else from the symbol-error rate. */
  readonly linkQuality: Uint8Array;
  readonly lanesDown: Uint8Array;
  /** LinkQualityIndicator set by a link-quality fault, -1 where none is. */
  private readonly qualitySet: Int8Array;
  private readonly adminDown: Uint8Array;
  private readonly flapDown: Uint8Array;
  private readonly nodeDown: Uint8Array;
  private readonly flaps = new Map<number, Flap>();
  private readonly active = new Map<string, FaultInfo>();

  constructor(
    private readonly fabric: Fabric,
    private readonly effects: FaultEffects,
  ) {
    const linkCount = fabric.links.length;
    this.linkUp = new Uint8Array(linkCount).fill(1);
    this.adminDown = new Uint8Array(linkCount);
    this.flapDown = new Uint8Array(linkCount);
    this.nodeDown = new Uint8Array(fabric.nodes.length);
    this.symbolRate = new Float64Array(linkCount * 2);
    this.directRates = ERROR_RATE_FAULTS.map(() => new Float64Array(linkCount * 2));
    this.linkQuality = new Uint8Array(linkCount * 2).fill(5);
    this.lanesDown = new Uint8Array(linkCount * 2);
    this.qualitySet = new Int8Array(linkCount * 2).fill(-1);
  }

  private updateQuality(p: number): void {
    const set = this.qualitySet[p] as number;
    this.linkQuality[p] = set >= 0 ? set : qualityOfSymbolRate(this.symbolRate[p] as number);
  }

  /** Records an active per-port fault, or forgets it when it is set back to nothing. */
  private keep(key: string, info: FaultInfo, active: boolean): FaultInfo {
    if (active) this.active.set(key, info);
    else this.active.delete(key);
    return info;
  }

  /** Applies a checked fault at `sinceMs`; returns what `GET /v1/faults` shows of it. */
  apply(fault: ResolvedFault, id: string, sinceMs: number): FaultInfo {
    switch (fault.type) {
      case 'link-down':
      case 'link-up': {
        const l = fault.link.index;
        const key = `link:${l}`;
        this.flaps.delete(l);
        this.flapDown[l] = 0;
        this.active.delete(`flap:${l}`);
        this.adminDown[l] = fault.type === 'link-down' ? 1 : 0;
        const info = this.keep(
          key,
          { id, type: fault.type, target: fault.link.id, sinceMs },
          fault.type === 'link-down',
        );
        this.update(l, false);
        return info;
      }
      case 'flap': {
        const l = fault.link.index;
        this.adminDown[l] = 0;
        this.active.delete(`link:${l}`);
        this.flaps.set(l, { id, periodMs: fault.periodMs, downMs: fault.downMs, nextMs: sinceMs, sinceMs });
        const info: FaultInfo = {
          id,
          type: 'flap',
          target: fault.link.id,
          sinceMs,
          period: fault.periodMs / 1000,
          downFor: fault.downMs / 1000,
        };
        this.active.set(`flap:${l}`, info);
        return info;
      }
      case 'link-quality': {
        for (const p of fault.ports) {
          this.qualitySet[p] = fault.quality === 5 ? -1 : fault.quality;
          this.updateQuality(p);
        }
        const info: FaultInfo = {
          id,
          type: fault.type,
          target: fault.target,
          sinceMs,
          quality: fault.quality,
        };
        return this.keep(`quality:${fault.target}`, info, fault.quality < 5);
      }
      case 'link-width-downgrade': {
        for (const p of fault.ports) this.lanesDown[p] = fault.lanes;
        const info: FaultInfo = { id, type: fault.type, target: fault.target, sinceMs, lanes: fault.lanes };
        return this.keep(`width:${fault.target}`, info, fault.lanes > 0);
      }
      case 'symbol-errors': {
        for (const p of fault.ports) {
          this.symbolRate[p] = fault.rate;
          this.updateQuality(p);
        }
        const info: FaultInfo = { id, type: fault.type, target: fault.target, sinceMs, rate: fault.rate };
        this.effects.errorsChanged();
        return this.keep(`symbols:${fault.target}`, info, fault.rate > 0);
      }
      case 'switch-down':
      case 'switch-up': {
        const n = fault.node;
        const key = `switch:${n.index}`;
        const down = fault.type === 'switch-down';
        const wasDown = this.nodeDown[n.index] === 1;
        this.nodeDown[n.index] = down ? 1 : 0;
        const info = this.keep(key, { id, type: fault.type, target: n.name, sinceMs }, down);
        // A switch that comes back has rebooted: its counters start again from 0.
        if (wasDown && !down) this.effects.restartNode(n);
        for (const port of n.ports) if (port && port.link >= 0) this.update(port.link, false);
        return info;
      }
      case 'restart':
        this.effects.restartNode(fault.node);
        return { id, type: fault.type, target: fault.node.name, sinceMs };
      case 'clear-counters':
        for (const out of fault.ports) this.effects.clearPort(out);
        return { id, type: fault.type, target: fault.target, sinceMs };
      default: {
        // The error-rate faults.
        const rates = this.directRates[
          ERROR_RATE_FAULTS.indexOf(fault.type as ErrorRateFault)
        ] as Float64Array;
        for (const p of fault.ports) rates[p] = fault.rate;
        const info: FaultInfo = { id, type: fault.type, target: fault.target, sinceMs, rate: fault.rate };
        this.effects.errorsChanged();
        return this.keep(`${fault.type}:${fault.target}`, info, fault.rate > 0);
      }
    }
  }

  list(): FaultInfo[] {
    return [...this.active.values()].map((f) => ({ ...f }));
  }

  clear(): void {
    this.adminDown.fill(0);
    this.flapDown.fill(0);
    this.nodeDown.fill(0);
    this.flaps.clear();
    this.symbolRate.fill(0);
    for (const rates of this.directRates) rates.fill(0);
    this.qualitySet.fill(-1);
    this.linkQuality.fill(5);
    this.lanesDown.fill(0);
    this.active.clear();
    for (const link of this.fabric.links) this.update(link.index, false);
    this.effects.errorsChanged();
  }

  /** The next time a flapping link goes down or comes back. */
  nextFlapMs(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const flap of this.flaps.values()) next = Math.min(next, flap.nextMs);
    return next;
  }

  /** Every flap transition due at or before `nowMs`. */
  processFlaps(nowMs: number): void {
    for (const [l, flap] of this.flaps) {
      while (flap.nextMs <= nowMs) {
        const phase = (flap.nextMs - flap.sinceMs) % flap.periodMs;
        const goingDown = phase === 0;
        this.flapDown[l] = goingDown ? 1 : 0;
        this.update(l, !goingDown);
        flap.nextMs += goingDown ? flap.downMs : flap.periodMs - flap.downMs;
      }
    }
  }

  /** Re-derives a link's state from its causes and reports a change. */
  private update(l: number, fromFlap: boolean): void {
    const link = this.fabric.links[l];
    if (!link) return;
    const a = this.fabric.nodeByName.get(link.a.node) as FabricNode;
    const b = this.fabric.nodeByName.get(link.b.node) as FabricNode;
    const up =
      this.adminDown[l] === 0 &&
      this.flapDown[l] === 0 &&
      this.nodeDown[a.index] === 0 &&
      this.nodeDown[b.index] === 0
        ? 1
        : 0;
    if (up === this.linkUp[l]) return;
    this.linkUp[l] = up;
    this.effects.linkChanged(l, up === 1, fromFlap);
  }
}
