/**
 * A small writer for the Prometheus text exposition format (0.0.4). Samples are grouped by
 * family so every family's HELP and TYPE come once, before its samples, as the format requires.
 */
type MetricType = 'counter' | 'gauge';

export function escapeLabelValue(value: string): string {
  if (!/[\\"\n]/.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

/** `{a="x",b="y"}` from label pairs in the given order; empty string for no labels. */
export function labelText(labels: Readonly<Record<string, string>>): string {
  let text = '';
  for (const name in labels) {
    text += `${text === '' ? '{' : ','}${name}="${escapeLabelValue(labels[name] as string)}"`;
  }
  return text === '' ? '' : `${text}}`;
}

interface Family {
  type: MetricType;
  help: string;
  lines: string[];
}

export class ExpositionWriter {
  private readonly families = new Map<string, Family>();

  gauge(name: string, help: string, labels: Readonly<Record<string, string>>, value: number): void {
    this.add(name, 'gauge', help, labels, value);
  }

  counter(name: string, help: string, labels: Readonly<Record<string, string>>, value: number): void {
    this.add(name, 'counter', help, labels, value);
  }

  /** Adds one sample; a family is declared by its first sample. */
  private add(
    name: string,
    type: MetricType,
    help: string,
    labels: Readonly<Record<string, string>>,
    value: number,
  ): void {
    let family = this.families.get(name);
    if (!family) {
      family = { type, help, lines: [] };
      this.families.set(name, family);
    }
    family.lines.push(`${name}${labelText(labels)} ${formatValue(value)}\n`);
  }

  text(): string {
    let out = '';
    for (const [name, family] of this.families) {
      if (family.lines.length === 0) continue;
      out += `# HELP ${name} ${escapeHelp(family.help)}\n# TYPE ${name} ${family.type}\n${family.lines.join('')}`;
    }
    return out;
  }
}
