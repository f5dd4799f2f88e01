import type { Fabric } from '@fabscope/topology';
import type { ApiConfig } from '../config.ts';
import type { EmulatorClient } from '../emulator-client.ts';
import type { EventLog } from '../events/event-log.ts';
import { OpafmXmlAdaptiveRouting } from './opafm-xml-provider.ts';
import {
  type AdaptiveRoutingProvider,
  EmulatorAdaptiveRouting,
  NO_AR_ON_OPENSM,
  NO_FABRIC_MANAGER,
  NO_ISLS,
  UnavailableAdaptiveRouting,
} from './provider.ts';

/**
 * Who manages adaptive routing, decided once at start, in this order:
 * - an InfiniBand fabric (FABSCOPE_FABRIC=infiniband): nobody. Upstream OpenSM has no adaptive
 *   routing, and an emulator there is only a traffic source, never the fabric's manager;
 * - a fabric without inter-switch links (one switch): nobody, there is no other path;
 * - the site's opafm.xml (FABSCOPE_OPAFM_XML), even with an emulator beside it;
 * - the demo's emulated fabric manager;
 * - nobody: no fabric manager is configured.
 */
export function adaptiveRoutingProviderFor(
  config: { fabricSource?: string | undefined; opafm?: ApiConfig['opafm'] },
  emulator: EmulatorClient | null,
  events?: EventLog,
  /** The fabric: one without inter-switch links (a single switch) has nothing to adapt. */
  fabric?: Pick<Fabric, 'links'>,
): AdaptiveRoutingProvider {
  if (config.fabricSource === 'infiniband') return new UnavailableAdaptiveRouting(NO_AR_ON_OPENSM);
  if (fabric && !fabric.links.some((l) => l.kind === 'isl')) return new UnavailableAdaptiveRouting(NO_ISLS);
  if (config.opafm) {
    return new OpafmXmlAdaptiveRouting({ path: config.opafm.xmlPath, apply: config.opafm.apply, events });
  }
  if (emulator) return new EmulatorAdaptiveRouting(emulator);
  return new UnavailableAdaptiveRouting(NO_FABRIC_MANAGER);
}
