/** GUIDs as the tools print them: 0x followed by 16 lower-case hex digits. */
export function formatGuid(value: bigint): string {
  return `0x${value.toString(16).padStart(16, '0')}`;
}

// Intel's OUI (00:11:75), the prefix real Omni-Path and True Scale parts carry.
const GENERATED_GUID_BASE = 0x0011750100000000n;

/** A deterministic GUID for the n-th generated node of a kind (0 hosts, 1 switches, 2 routers). */
export function generatedGuid(kind: number, n: number): string {
  return formatGuid(GENERATED_GUID_BASE + (BigInt(kind) << 24n) + BigInt(n));
}

/** A GUID in any tool's form as `0x` + 16 lower-case hex digits; non-hex text comes back unchanged. */
export function normalizeGuid(text: string): string {
  return `0x${text.trim().toLowerCase().replace(/^0x/, '').padStart(16, '0')}`;
}
