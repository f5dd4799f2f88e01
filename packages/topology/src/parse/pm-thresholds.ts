import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DEFAULT_PM_THRESHOLDS, type PmThresholdConfig } from '../analysis/pm-categories.ts';
import { parseError } from './errors.ts';

const FORMAT = 'PM thresholds';
const SECTIONS = ['Thresholds', 'IntegrityWeights', 'CongestionWeights'] as const;
type Section = (typeof SECTIONS)[number];
const KEY: Record<Section, keyof PmThresholdConfig> = {
  Thresholds: 'thresholds',
  IntegrityWeights: 'integrityWeights',
  CongestionWeights: 'congestionWeights',
};

type XmlObject = Record<string, unknown>;

/** Finds the first element named `name` anywhere below `node` (opafm.xml nests it in Common/Pm). */
function findSection(node: unknown, name: string, depth = 0): XmlObject | undefined {
  if (typeof node !== 'object' || node === null || depth > 8) return undefined;
  const obj = node as XmlObject;
  if (name in obj) return (obj[name] ?? {}) as XmlObject;
  for (const child of Object.values(obj)) {
    const found = findSection(child, name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** PM thresholds and weights in opafm.xml's `<Pm>` vocabulary; what is left out keeps opafm's default. */
export function parsePmThresholds(text: string): PmThresholdConfig {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw parseError(`malformed XML: ${valid.err.msg}`, valid.err.line, FORMAT);
  const parser = new XMLParser({
    ignoreAttributes: true,
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    trimValues: true,
  });
  const doc = parser.parse(text) as XmlObject;
  const config: PmThresholdConfig = {
    thresholds: { ...DEFAULT_PM_THRESHOLDS.thresholds },
    integrityWeights: { ...DEFAULT_PM_THRESHOLDS.integrityWeights },
    congestionWeights: { ...DEFAULT_PM_THRESHOLDS.congestionWeights },
  };
  let found = false;
  for (const section of SECTIONS) {
    const xml = findSection(doc, section);
    if (!xml) continue;
    found = true;
    const target = config[KEY[section]] as Record<string, number>;
    for (const [name, raw] of Object.entries(typeof xml === 'object' ? xml : {})) {
      if (!(name in target)) {
        throw parseError(
          `unknown element <${name}>; known: ${Object.keys(target).join(', ')}`,
          undefined,
          FORMAT,
          `<${section}>`,
        );
      }
      const text = String(raw);
      if (!/^\d+$/.test(text)) {
        throw parseError(
          `<${name}> must be a whole number ≥ 0, got "${text}"`,
          undefined,
          FORMAT,
          `<${section}>`,
        );
      }
      target[name] = Number(text);
    }
  }
  if (!found)
    throw parseError('expected <Thresholds>, <IntegrityWeights> or <CongestionWeights>', undefined, FORMAT);
  return config;
}
