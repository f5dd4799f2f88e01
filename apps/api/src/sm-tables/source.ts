import type { Fabric } from '@fabscope/topology';
import type { SmTablesFrom } from './origin.ts';

/** One read of the subnet manager's tables. */
export type SmTablesRead =
  /** A complete dump in ibroute / dump_fts / opensm-lfts.dump format. */
  | {
      kind: 'dump';
      text: string;
      /** This version of the source (a file's mtime and size); absent: the tables are compared. */
      version?: string;
      /** Switches the source could not read (name → why): they are missing, said, not filled. */
      failed?: ReadonlyMap<string, string>;
    }
  /** The same version as the one applied last (`read(applied)`). */
  | { kind: 'unchanged' }
  /** Nothing complete to read now (a file being written): try again next time. */
  | { kind: 'not-ready'; reason: string };

/** Where the subnet manager's tables are read from. Throws when the source fails. */
export interface SmTablesSource {
  readonly from: Exclude<SmTablesFrom, 'emulator'>;
  /** Reads the tables; `applied` is the version applied last, if the source has versions. */
  read(applied: string | undefined): Promise<SmTablesRead>;
  /** The fabric to read the tables of from now on (a source that asks each switch needs it). */
  useFabric?(fabric: Fabric): void;
}
