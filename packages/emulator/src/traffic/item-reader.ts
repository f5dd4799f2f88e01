import {
  type CollectivePattern,
  collectivePairs,
  type Fabric,
  type FabricNode,
  PatternError,
  patternHosts,
} from '@fabscope/topology';
import type { Networks } from '../routing/networks.ts';
import { QuantityError } from '../units.ts';
import { TrafficError } from './request.ts';

/** One traffic item of a request as it is read: every refusal names the item and field. */
export class ItemReader {
  constructor(
    private readonly fabric: Fabric,
    private readonly networks: Networks,
    readonly raw: Record<string, unknown>,
    private readonly where: string,
  ) {}

  /** A field's name as an error gives it (`items[2].start`). */
  at(field: string): string {
    return this.where ? `${this.where}.${field}` : field;
  }

  fail(message: string): never {
    throw new TrafficError(this.where ? `${this.where}: ${message}` : message);
  }

  /** Field `field` read by `parse`, its QuantityError refused as the item's; `fallback` when absent. */
  quantity<T>(field: string, parse: (name: string, value: unknown) => number, fallback: T): number | T {
    const value = this.raw[field];
    if (value === undefined) return fallback;
    try {
      return parse(this.at(field), value);
    } catch (error) {
      if (error instanceof QuantityError) return this.fail(error.message);
      throw error;
    }
  }

  node(name: unknown, field: string): FabricNode {
    if (typeof name !== 'string') return this.fail(`${field} must be a node name`);
    const found = this.fabric.nodeByName.get(name);
    if (!found) return this.fail(`${field}: unknown node "${name}"`);
    if (found.type === 'switch') return this.fail(`${field}: "${name}" is a switch, not a host`);
    return found;
  }

  /** A non-empty list of distinct hosts. */
  nodeList(value: unknown, field: string): FabricNode[] {
    if (!Array.isArray(value)) return this.fail(`${field} must be an array of host names`);
    if (value.length === 0) return this.fail(`${field} is empty`);
    const list = value.map((name, i) => this.node(name, `${field}[${i}]`));
    if (new Set(list).size !== list.length) this.fail(`${field} names a host twice`);
    return list;
  }

  /** The hosts a collective pattern runs on: in LID order, as `fabscope analyze` takes them. */
  hosts(): FabricNode[] {
    if (this.raw.hosts !== undefined) return this.nodeList(this.raw.hosts, 'hosts');
    const main = this.networks.mainNetwork();
    return patternHosts(this.fabric).filter((h) => this.networks.networkOf[h.index] === main);
  }

  collective(list: FabricNode[], of: CollectivePattern): [FabricNode, FabricNode][] {
    try {
      return collectivePairs(list, of);
    } catch (error) {
      if (error instanceof PatternError) return this.fail(error.message);
      throw error;
    }
  }

  /** A whole number ≥ `min`, `fallback` when absent. */
  count(value: unknown, field: string, fallback: number, min = 1): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      return this.fail(`${field} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
    }
    return value;
  }
}
