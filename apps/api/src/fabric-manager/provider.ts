import type {
  AdaptiveRouting,
  AdaptiveRoutingAvailable,
  AdaptiveRoutingChange,
  AdaptiveRoutingPatch,
  AdaptiveRoutingStatus,
} from '@fabscope/contracts';
import type { EmulatorClient } from '../emulator-client.ts';

/** Where the API reads and changes adaptive routing (chosen once at start, choose-provider.ts). */
export interface AdaptiveRoutingProvider {
  /** The settings now, or `{available: false, reason}`. */
  get(): Promise<AdaptiveRoutingStatus>;
  /** Changes the settings in `patch`; ProviderError 409 when there is nothing to change, 400 when refused. */
  set(patch: AdaptiveRoutingPatch, changedBy: string): Promise<AdaptiveRoutingChange>;
}

/** A refusal to answer as is: its status (4xx, or 502 when the manager failed) and a message for people. */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const NO_AR_ON_OPENSM = 'upstream OpenSM has no adaptive routing';
export const NO_ISLS = 'no inter-switch links: a route has no other path to adapt to';
export const NO_FABRIC_MANAGER =
  'no fabric manager is configured (FABSCOPE_OPAFM_XML) and no emulator is attached (FABSCOPE_EMULATOR_URL)';

/** A fabric without adaptive routing fabscope can manage: GET says why, PUT is refused 409 with it. */
export class UnavailableAdaptiveRouting implements AdaptiveRoutingProvider {
  constructor(readonly reason: string) {}

  async get(): Promise<AdaptiveRoutingStatus> {
    return { available: false, reason: this.reason };
  }

  async set(): Promise<AdaptiveRoutingChange> {
    throw new ProviderError(409, this.reason);
  }
}

/** The five settings alone, whatever else an answer carried. */
export function settingsOf(s: AdaptiveRouting): AdaptiveRouting {
  const { enabled, lostRouteOnly, algorithm, arFrequency, threshold } = s;
  return { enabled, lostRouteOnly, algorithm, arFrequency, threshold };
}

/** The demo's emulated fabric manager; the recording client logs its changes, its errors pass through. */
export class EmulatorAdaptiveRouting implements AdaptiveRoutingProvider {
  constructor(private readonly emulator: EmulatorClient) {}

  async get(): Promise<AdaptiveRoutingAvailable> {
    return { ...settingsOf(await this.emulator.getAdaptiveRouting()), available: true, source: 'emulator' };
  }

  async set(patch: AdaptiveRoutingPatch): Promise<AdaptiveRoutingChange> {
    const after = await this.emulator.setAdaptiveRouting(patch);
    return { ...settingsOf(after), available: true, source: 'emulator' };
  }
}
