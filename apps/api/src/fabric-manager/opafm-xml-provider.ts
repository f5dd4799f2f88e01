import { randomBytes } from 'node:crypto';
import { chmod, chown, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type {
  AdaptiveRouting,
  AdaptiveRoutingChange,
  AdaptiveRoutingPatch,
  AdaptiveRoutingStatus,
  CommandOutcome,
} from '@fabscope/contracts';
import type { EventLog } from '../events/event-log.ts';
import { describeChange } from '../events/recording-emulator.ts';
import { editSection, locateSection, readSettings, type Section, sectionLines } from './opafm-xml.ts';
import { type AdaptiveRoutingProvider, ProviderError } from './provider.ts';
import { runCommand } from './run-command.ts';
import { unifiedDiff } from './section-diff.ts';

/** opa-fm's own validator, from Debian's (and Cornelis') opa-fm package. */
export const CONFIG_CHECK = '/usr/lib/opa-fm/bin/config_check';

export interface OpafmXmlOptions {
  /** The site's opafm.xml (FABSCOPE_OPAFM_XML); a symlink is followed and the file it names edited. */
  path: string;
  /** Run after each write, without a shell (FABSCOPE_OPAFM_APPLY as words); absent: none. */
  apply?: readonly string[] | undefined;
  applyTimeoutMs?: number;
  configCheck?: string;
  validateTimeoutMs?: number;
  /** Backups kept beside the file (`opafm.xml.fabscope-<time>.bak`), the oldest removed. */
  keepBackups?: number;
  events?: EventLog | undefined;
  now?: () => number;
}

/**
 * Adaptive routing in the site's opafm.xml `<Common><Sm><AdaptiveRouting>`, one change at a time: edits only that
 * section, passes config_check on the copy, replaces the file atomically after a backup, then runs the apply command.
 */
export class OpafmXmlAdaptiveRouting implements AdaptiveRoutingProvider {
  private readonly configCheck: string;
  private readonly keepBackups: number;
  private readonly now: () => number;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: OpafmXmlOptions) {
    this.configCheck = options.configCheck ?? CONFIG_CHECK;
    this.keepBackups = options.keepBackups ?? 10;
    this.now = options.now ?? Date.now;
  }

  async get(): Promise<AdaptiveRoutingStatus> {
    const { text } = await this.read();
    const found = this.settings(text);
    if ('reason' in found) return { available: false, reason: found.reason };
    return { ...found.settings, available: true, source: 'opafm.xml' };
  }

  set(patch: AdaptiveRoutingPatch, changedBy: string): Promise<AdaptiveRoutingChange> {
    const change = this.queue.then(() => this.change(patch, changedBy));
    this.queue = change.catch(() => undefined);
    return change;
  }

  private async read(): Promise<{ file: string; text: string }> {
    try {
      const file = await realpath(this.options.path);
      return { file, text: await readFile(file, 'latin1') };
    } catch (error) {
      throw new ProviderError(502, `cannot read ${this.options.path}: ${(error as Error).message}`);
    }
  }

  private settings(text: string): { section: Section; settings: AdaptiveRouting } | { reason: string } {
    const section = locateSection(text);
    if ('reason' in section) return section;
    const settings = readSettings(text, section);
    return 'reason' in settings ? settings : { section, settings };
  }

  private async change(patch: AdaptiveRoutingPatch, changedBy: string): Promise<AdaptiveRoutingChange> {
    const { file, text } = await this.read();
    const found = this.settings(text);
    if ('reason' in found) throw new ProviderError(409, found.reason);
    const { section, settings: before } = found;
    const edited = editSection(text, section, patch);
    // The edited text read back as opa-fm would: the answer never claims more than the file.
    const reread = this.settings(edited);
    const after = 'reason' in reread ? { ...before, ...patch } : reread.settings;
    const { firstLine, lines } = sectionLines(text, section.element.start, section.element.end);
    const editedEnd = section.element.end + edited.length - text.length;
    const diff = unifiedDiff(lines, sectionLines(edited, section.element.start, editedEnd).lines, {
      label: file,
      firstLine,
    });
    const answer = { ...after, available: true as const, source: 'opafm.xml' as const };
    if (edited === text)
      return {
        ...answer,
        change: { file, written: false, backup: null, diff, validator: null, apply: null },
      };
    const problem = 'reason' in reread ? reread.reason : null;
    const { validator, backup } = await this.replace(file, text, edited, problem);
    const apply = this.options.apply
      ? await runCommand(this.options.apply, this.options.applyTimeoutMs ?? 30_000)
      : null;
    this.record(before, after, file, changedBy, apply);
    return { ...answer, change: { file, written: true, backup, diff, validator, apply } };
  }

  /** Validates `edited` beside `file` (config_check, then fabscope's `problem`), backs up and renames it over. */
  private async replace(
    file: string,
    text: string,
    edited: string,
    problem: string | null,
  ): Promise<{ validator: CommandOutcome; backup: string }> {
    const info = await stat(file);
    const mode = info.mode & 0o7777;
    const temp = join(dirname(file), `.${basename(file)}.fabscope-${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temp, edited, { encoding: 'latin1', mode, flag: 'wx' });
      await chmod(temp, mode);
      if (process.getuid?.() === 0) await chown(temp, info.uid, info.gid).catch(() => undefined);
      const validator = await this.check(temp);
      if (!validator.ok) await this.refuse(validator, file, temp);
      if (problem !== null) throw new ProviderError(400, problem);
      if ((await readFile(file, 'latin1')) !== text)
        throw new ProviderError(
          409,
          `${file} changed while fabscope was editing it: nothing written, try again`,
        );
      const backup = await this.backup(file, text, mode);
      await rename(temp, file);
      return { validator, backup };
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      throw new ProviderError(409, `cannot replace ${file}: ${(error as Error).message}`);
    } finally {
      await rm(temp, { force: true });
    }
  }

  private check(path: string): Promise<CommandOutcome> {
    return runCommand([this.configCheck, '-c', path], this.options.validateTimeoutMs ?? 30_000);
  }

  /** Throws the validator's verdict: 400 for the change, 409 when the file fails as it is, or when it cannot run. */
  private async refuse(validator: CommandOutcome, file: string, temp: string): Promise<never> {
    if (validator.error !== undefined || validator.timedOut) {
      throw new ProviderError(
        409,
        `opa-fm's config_check (${this.configCheck}) ${validator.timedOut ? 'timed out' : `cannot run: ${validator.error}`}; fabscope writes opafm.xml only once it passes`,
      );
    }
    const original = await this.check(file);
    if (!original.ok) {
      throw new ProviderError(409, `${file} fails config_check as it is: ${verdict(original, file, file)}`);
    }
    throw new ProviderError(400, `config_check refuses the change: ${verdict(validator, temp, file)}`);
  }

  /** `file.fabscope-<UTC time>.bak`, with the file's mode; the oldest beyond keepBackups removed. */
  private async backup(file: string, text: string, mode: number): Promise<string> {
    const stamp = new Date(this.now()).toISOString().replace(/[-:]/g, '');
    const prefix = `${basename(file)}.fabscope-`;
    let backup = '';
    for (let n = 0; backup === ''; n++) {
      const candidate = join(dirname(file), `${prefix}${stamp}${n === 0 ? '' : `-${n}`}.bak`);
      try {
        await writeFile(candidate, text, { encoding: 'latin1', mode, flag: 'wx' });
        backup = candidate;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw error;
      }
    }
    const backups = (await readdir(dirname(file)))
      .filter((name) => name.startsWith(prefix) && name.endsWith('.bak'))
      .sort();
    for (const old of backups.slice(0, Math.max(0, backups.length - this.keepBackups))) {
      await rm(join(dirname(file), old), { force: true });
    }
    return backup;
  }

  private record(
    before: AdaptiveRouting,
    after: AdaptiveRouting,
    file: string,
    changedBy: string,
    apply: CommandOutcome | null,
  ): void {
    if (!this.options.events) return;
    const parts = [`${describeChange(before, after)} in ${file}`, `by ${changedBy}`];
    if (apply) parts.push(`apply ${apply.ok ? 'ok' : `failed: ${outcomeSummary(apply)}`}`);
    this.options.events.append({
      timeMs: this.now(),
      kind: 'adaptive-routing',
      subject: 'fabric',
      detail: parts.join('; '),
      ...(apply && !apply.ok ? { severity: 'warning' as const } : {}),
    });
  }
}

/** The validator's first line (the cause), naming `file` where it named the copy it checked. */
function verdict(outcome: CommandOutcome, checked: string, file: string): string {
  const line = `${outcome.stderr}\n${outcome.stdout}`
    .split('\n')
    .map((l) => l.split(checked).join(file).trim())
    .find((l) => l !== '');
  return line ?? outcomeSummary(outcome);
}

/** "exit 1", "killed by SIGTERM after the timeout", "spawn … ENOENT". */
export function outcomeSummary(outcome: CommandOutcome): string {
  if (outcome.error !== undefined) return outcome.error;
  if (outcome.timedOut) return `killed by ${outcome.signal ?? 'a signal'} after the timeout`;
  if (outcome.signal !== null) return `killed by ${outcome.signal}`;
  return `exit ${outcome.exitCode}`;
}
