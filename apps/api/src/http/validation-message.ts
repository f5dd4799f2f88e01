/**
 * One sentence per bad parameter from Ajv's errors, instead of Ajv's list: a value that must be
 * one of several constants (`sort`, `order`, `kind`) says the allowed values once, an unknown
 * parameter is named, a value off a grammar of the contract (times, steps) is told what it
 * should be, and the rest read as Ajv says them, each parameter once.
 */

import { PATTERN_MEANINGS } from '@fabscope/contracts';

/** What Fastify hands a schemaErrorFormatter (Ajv's ErrorObject, the fields read here). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string | undefined;
  params: Record<string, unknown>;
  /** The value that failed and the schema it failed (Ajv's `verbose` option). */
  data?: unknown;
  schema?: unknown;
  schemaPath?: string;
}

/** `querystring/sort`, `body/pairs/0`: where, as the API's messages have always said it. */
function where(dataVar: string, instancePath: string): string {
  return `${dataVar}${instancePath}`;
}

export function validationMessage(issues: readonly ValidationIssue[], dataVar: string): string {
  const allowed = new Map<string, unknown[]>();
  const sentences = new Map<string, string>();
  for (const issue of issues) {
    const at = where(dataVar, issue.instancePath);
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
      // A grammar of the contract (a time, a step) said in words, with the value, not as its regex.
      const meaning =
        PATTERN_MEANINGS.get(String(issue.params.pattern)) ?? 'does not have the form its description gives';
      const value = typeof issue.data === 'string' ? ` "${issue.data}"` : '';
      sentences.set(at, `${at}${value} ${meaning}`);
    } else if (issue.keyword === 'anyOf' && issue.schemaPath?.includes('/then/')) {
      // The one-of-two targets a fault needs (a link, or node and port): said whole, over what
      // its branches said.
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
      // A field the chosen pattern (or type) needs: said with the choice that needs it.
      const data = issue.data as Record<string, unknown> | undefined;
      const choice = data?.pattern ?? data?.type;
      const field = String(issue.params.missingProperty);
      sentences.set(
        at,
        typeof choice === 'string' ? `${at}: "${choice}" needs ${field}` : `${at} ${issue.message}`,
      );
    } else if (issue.keyword === 'if') {
      // Said by the error inside `then` (a field the chosen pattern needs).
    } else if (issue.keyword === 'anyOf' && allowed.has(at)) {
      // Said by the allowed values.
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
