/** A topology or routing file that does not parse: says where (line or XML element) and what was expected. */
export class TopologyParseError extends Error {
  override name = 'TopologyParseError';
  constructor(
    readonly reason: string,
    /** 1-based line number, when the format has lines. */
    readonly line: number | undefined,
    readonly format: string,
    /** The XML element at fault, for XML formats. */
    readonly element?: string,
  ) {
    super(
      `${format}: ${line === undefined ? '' : `line ${line}: `}${element === undefined ? '' : `${element}: `}${reason}`,
    );
  }
}
