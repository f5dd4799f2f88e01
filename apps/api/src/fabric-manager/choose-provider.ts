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

/** Who manages adaptive routing: nobody on InfiniBand or without ISLs, else opafm.xml, else the emulator's, else nobody. */
export function adaptiveRoutingProviderFor(
  config: { fabricSource?: string | undefined; opafm?: ApiConfig['opafm'] },
  emulator: EmulatorClient | null,
  events?: EventLog,
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
