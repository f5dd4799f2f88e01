// The one contract of fabscope's HTTP interfaces: TypeBox schemas and their Static types for the
// API's /api/v1 and the emulator's v1. Fastify routes validate with them, clients and the web
// take their types from them (types only: the web still talks HTTP). Imports nothing of fabscope.
export const CONTRACTS_VERSION = 1;
