// The API's own domain errors; http/errors.ts maps each class to its status in one table.
/** A setting that cannot work, found at start; the message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A name the fabric or the API does not have: a node, link, link direction, job, alarm. */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** A request the API cannot act on as written, although its schema accepted it. */
export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError';
}

/** Traffic, faults and AR control asked of an API without an emulator. */
export class NoEmulatorError extends Error {
  override name = 'NoEmulatorError';
  constructor() {
    super('no emulator is attached (FABSCOPE_EMULATOR_URL): traffic, faults and AR control need one');
  }
}

/** A time question asked of a store that keeps no history. */
export class NoHistoryError extends Error {
  override name = 'NoHistoryError';
  constructor(kind: string) {
    super(`the ${kind} store keeps no history: time travel needs the embedded store or Prometheus`);
  }
}
