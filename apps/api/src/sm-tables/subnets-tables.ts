import type { Fabric } from '@fabscope/topology';
import type { SmTablesRead, SmTablesSource } from './source.ts';

/**
 * Every subnet's SM tables as one dump: each subnet's own source (its OpenSM's dump, or its switches asked
 * through its port), the texts joined; their switches are told apart by GUID when applied. Complete only when
 * every subnet's is: one not ready makes the whole not ready, one failing fails the read, named.
 */
export class SubnetsTables implements SmTablesSource {
  readonly from: SmTablesSource['from'];

  constructor(private readonly subnets: readonly { name: string; source: SmTablesSource }[]) {
    const first = subnets[0];
    if (!first) throw new RangeError('no subnet to read the tables of');
    this.from = first.source.from;
  }

  useFabric(fabric: Fabric): void {
    for (const { source } of this.subnets) source.useFabric?.(fabric);
  }

  async read(applied: string | undefined): Promise<SmTablesRead> {
    const reads = await Promise.all(
      this.subnets.map(({ name, source }) =>
        source.read(undefined).then(
          (read) => ({ name, read }),
          (error: Error) => {
            throw new Error(`subnet ${name}: ${error.message}`);
          },
        ),
      ),
    );
    const texts: string[] = [];
    const versions: string[] = [];
    const failed = new Map<string, string>();
    for (const { name, read } of reads) {
      if (read.kind === 'not-ready') return { kind: 'not-ready', reason: `subnet ${name}: ${read.reason}` };
      // read(undefined) never answers unchanged; a source that did is read again next time.
      if (read.kind === 'unchanged') return { kind: 'not-ready', reason: `subnet ${name}: nothing read` };
      texts.push(read.text);
      if (read.version !== undefined) versions.push(`${name}=${read.version}`);
      for (const [sw, why] of read.failed ?? []) failed.set(sw, why);
    }
    const version = versions.length === reads.length ? versions.join(' ') : undefined;
    if (version !== undefined && version === applied) return { kind: 'unchanged' };
    return {
      kind: 'dump',
      text: texts.join('\n'),
      ...(version !== undefined ? { version } : {}),
      ...(failed.size > 0 ? { failed } : {}),
    };
  }
}
