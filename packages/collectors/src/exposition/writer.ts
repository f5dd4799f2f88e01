// Prometheus text exposition (0.0.4): samples grouped by family, each family's HELP and TYPE once before them.
type MetricType = 'counter' | 'gauge';
type Labels = Readonly<Record<string, string>>;

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
function labelText(labels: Labels): string {
  let text = '';
  for (const name in labels) {
    text += `${text === '' ? '{' : ','}${name}="${escapeLabelValue(labels[name] as string)}"`;
  }
  return text === '' ? '' : `${text}}`;
}

export class ExpositionWriter {
  /** Each family's text so far, its HELP and TYPE first; a family is declared by its first sample. */
  private readonly families = new Map<string, string>();

  gauge(name: string, help: string, labels: Labels, value: number): void {
    this.add(name, 'gauge', help, labels, value);
  }

  counter(name: string, help: string, labels: Labels, value: number): void {
    this.add(name, 'counter', help, labels, value);
  }

  private add(name: string, type: MetricType, help: string, labels: Labels, value: number): void {
    const text = this.families.get(name) ?? `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`;
    this.families.set(name, `${text}${name}${labelText(labels)} ${formatValue(value)}\n`);
  }

  text(): string {
    return [...this.families.values()].join('');
  }
}
