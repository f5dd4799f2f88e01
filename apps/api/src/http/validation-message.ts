/** One sentence per bad parameter from Ajv's errors, allowed values and contract grammars said in words. */

import { PATTERN_MEANINGS } from '@fabscope/contracts';

export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string | undefined;
  params: Record<string, unknown>;
  data?: unknown;
  schema?: unknown;
  schemaPath?: string;
}

export function validationMessage(issues: readonly ValidationIssue[], dataVar: string): string {
  const allowed = new Map<string, unknown[]>();
  const sentences = new Map<string, string>();
  for (const issue of issues) {
    const at = `${dataVar}${issue.instancePath}`;
    if (issue.keyword === 'const' || issue.keyword === 'enum') {
      const values =
        issue.keyword === 'const'
          ? [issue.params.allowedValue]
          : ((issue.params.allowedValues as unknown[] | undefined) ?? []);
      const list = allowed.get(at) ?? [];
      for (const v of values) if (!list.includes(v)) list.push(v);
      allowed.set(at, list);
    } else if (issue.keyword === 'additionalProperties') {
      const name = String(issue.params.additionalProperty);
      const key = `${at}/${name}`;
      if (!sentences.has(key)) sentences.set(key, `${dataVar} has an unknown parameter "${name}"`);
    } else if (issue.keyword === 'pattern' && !sentences.has(at)) {
      const meaning =
        PATTERN_MEANINGS.get(String(issue.params.pattern)) ?? 'does not have the form its description gives';
      const value = typeof issue.data === 'string' ? ` "${issue.data}"` : '';
      sentences.set(at, `${at}${value} ${meaning}`);
    } else if (issue.keyword === 'anyOf' && issue.schemaPath?.includes('/then/')) {
      // The one-of-two targets a fault needs (a link, or node and port), said whole.
      const data = issue.data as Record<string, unknown> | undefined;
      const choice = typeof data?.type === 'string' ? `"${data.type}"` : 'this type';
      sentences.set(at, `${at}: ${choice} needs link, or node and port (not both)`);
    } else if (
      issue.keyword === 'not' &&
      issue.schemaPath?.includes('/then/') &&
      Object.keys((issue.schema as object | undefined) ?? { x: 0 }).length === 0
    ) {
      // A field the chosen type does not take (`not: {}` in its rule).
      if (!sentences.has(at)) sentences.set(at, `${at} is not a field of this type`);
    } else if (issue.keyword === 'not' && !sentences.has(at)) {
      // `not: {required: [a, b]}`: the two exclude each other.
      const required = (issue.schema as { required?: unknown } | undefined)?.required;
      sentences.set(
        at,
        Array.isArray(required) ? `${at}: give ${required.join(' or ')}, not both` : `${at} ${issue.message}`,
      );
    } else if (issue.keyword === 'required' && issue.schemaPath?.includes('/then/') && !sentences.has(at)) {
      const data = issue.data as Record<string, unknown> | undefined;
      const choice = data?.pattern ?? data?.type;
      const field = String(issue.params.missingProperty);
      sentences.set(
        at,
        typeof choice === 'string' ? `${at}: "${choice}" needs ${field}` : `${at} ${issue.message}`,
      );
    } else if (issue.keyword === 'if') {
    } else if (issue.keyword === 'anyOf' && allowed.has(at)) {
    } else if (!sentences.has(at)) {
      sentences.set(at, `${at} ${issue.message ?? 'is not valid'}`);
    }
  }
  for (const [at, values] of allowed) {
    sentences.delete(at);
    sentences.set(
      at,
      `${at} must be one of: ${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`,
    );
  }
  return [...sentences.values()].join('; ');
}
