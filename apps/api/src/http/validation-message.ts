/**
 * One sentence per bad parameter from Ajv's errors, instead of Ajv's list: a value that must be
 * one of several constants (`sort`, `order`, `kind`) says the allowed values once, an unknown
 * parameter is named, and the rest read as Ajv says them, each parameter once.
 */

/** What Fastify hands a schemaErrorFormatter (Ajv's ErrorObject, the fields read here). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string | undefined;
  params: Record<string, unknown>;
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
