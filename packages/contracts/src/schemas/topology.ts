import { type Static, Type } from '@sinclair/typebox';
import { LINK_KINDS } from '../names.ts';
import { Literals } from './common.ts';
import { FabricTypeSchema, NodeTypeSchema } from './emulator.ts';

/** A port of a node: `node` and its `port` number. */
export const PortRefSchema = Type.Object({ node: Type.String(), port: Type.Integer() });

export const LinkKindSchema = Literals(LINK_KINDS);
export type PortRef = Static<typeof PortRefSchema>;

/** `GET /topology`: the fabric's nodes and cables. */
export const TopologySchema = Type.Object({
  name: Type.String(),
  version: Type.Optional(
    Type.Integer({
      description:
        "The drawn topology's version (health.topologyVersion); absent as loaded and in a past instant's answer",
    }),
  ),
  fabricType: FabricTypeSchema,
  nodes: Type.Array(
    Type.Object({
      name: Type.String(),
      type: NodeTypeSchema,
      tier: Type.Integer({ description: '0 hosts and routers, 1 edge, 2 core …' }),
      guid: Type.String(),
      lid: Type.Integer(),
      subnet: Type.Optional(
        Type.String({
          description:
            'The subnet the node is on where several are watched (the local port, `mlx5_1:1`): its LID is unique within it',
        }),
      ),
    }),
  ),
  links: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: LinkKindSchema,
      a: PortRefSchema,
      b: PortRefSchema,
      rateGbps: Type.Number(),
      fabricType: Type.Optional(
        Type.Union(FabricTypeSchema.anyOf, {
          description: "The cable's network where it differs from the fabric's type",
        }),
      ),
    }),
  ),
});
export type Topology = Static<typeof TopologySchema>;
export type TopologyNode = Topology['nodes'][number];
export type TopologyLink = Topology['links'][number];
