import { DEFAULT_PM_THRESHOLDS, type PmThresholdConfig } from '../analysis/pm-categories.ts';
import { parseError } from './errors.ts';
import { readXml, type XmlElement } from './xml.ts';

const FORMAT = 'PM thresholds';
const SECTIONS = {
  Thresholds: 'thresholds',
  IntegrityWeights: 'integrityWeights',
  CongestionWeights: 'congestionWeights',
} as const;

/** The first element named `name` at or below `element` (opafm.xml nests it in Common/Pm). */
function findSection(element: XmlElement, name: string): XmlElement | undefined {
  if (element.name === name) return element;
  for (const child of element.children ?? []) {
    const found = findSection(child, name);
    if (found) return found;
  }
  return undefined;
}

/** PM thresholds and weights in opafm.xml's `<Pm>` vocabulary; what is left out keeps opafm's default. */
export function parsePmThresholds(text: string): PmThresholdConfig {
  const root = readXml(text, FORMAT);
  const config: PmThresholdConfig = {
    thresholds: { ...DEFAULT_PM_THRESHOLDS.thresholds },
    integrityWeights: { ...DEFAULT_PM_THRESHOLDS.integrityWeights },
    congestionWeights: { ...DEFAULT_PM_THRESHOLDS.congestionWeights },
  };
  let found = false;
  for (const [section, key] of Object.entries(SECTIONS)) {
    const xml = findSection(root, section);
    if (!xml) continue;
    found = true;
    const target = config[key] as Record<string, number>;
    for (const { name, text: value, line } of xml.children ?? []) {
      if (!(name in target)) {
        throw parseError(
          `unknown element <${name}>; known: ${Object.keys(target).join(', ')}`,
          line,
          FORMAT,
          `<${section}>`,
        );
      }
      if (!/^\d+$/.test(value)) {
        throw parseError(
          `<${name}> must be a whole number ≥ 0, got "${value}"`,
          line,
          FORMAT,
          `<${section}>`,
        );
      }
      target[name] = Number(value);
    }
  }
  if (!found)
    throw parseError('expected <Thresholds>, <IntegrityWeights> or <CongestionWeights>', undefined, FORMAT);
  return config;
}
