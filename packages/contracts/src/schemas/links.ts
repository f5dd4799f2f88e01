import { type Static, Type } from '@sinclair/typebox';
import { PORT_TOTAL_FIELDS } from '../counter-names.ts';
import { ERROR_FIELDS } from '../metrics.ts';
import { CATEGORY_NAMES } from '../names.ts';
import { Closed, Literals, Nullable, recordOf } from './common.ts';
import { FabricTypeSchema, NodeTypeSchema } from './emulator.ts';
import { OpticReadingSchema } from './optics.ts';
import { PageAnswerFields, PageQueryFields } from './paging.ts';
import { TimeParam } from './time.ts';
import { LinkKindSchema, PortRefSchema } from './topology.ts';

/** One link direction's figures at one instant: a row of `/links`, an object of the stream. */
export const LinkStateSchema = Type.Object({
  id: Type.String({ description: 'Link direction `node/port->node/port`' }),
  linkId: Type.String(),
  kind: LinkKindSchema,
  from: PortRefSchema,
  to: PortRefSchema,
  capacityBytesPerSecond: Type.Number(),
  utilization: Nullable(Type.Number({ description: 'Fraction 0..1; null when unknown (stale)' })),
  bytesPerSecond: Nullable(Type.Number()),
  packetsPerSecond: Nullable(Type.Number()),
  transmitWaitTicksPerSecond: Nullable(
    Type.Number({ description: 'XmitWait ticks per second at the sending port; null when unknown' }),
  ),
  transmitWaitFraction: Nullable(
    Type.Number({
      description:
        'Share of time 0..1 the sending port had data and no credit (XmitWait ticks/s × tick length); null when unknown',
    }),
  ),
  linkUp: Nullable(Type.Boolean(), {
    description: 'false when either end reports the link down, true when active; null when not reported',
  }),
  stale: Type.Boolean(),
  errors: recordOf(ERROR_FIELDS, Nullable(Type.Number()), {
    description:
      'Error, congestion and bubble counters per second (linkQualityIndicator 0..5 and linkWidthDowngradeLanes as values): the sending port for transmit counters, the receiving port for receive counters, the worse end for link counters; null when unknown (docs/metrics.md)',
  }),
  errorsPerSecond: Nullable(
    Type.Number({
      description:
        'Every error counter of `errors` together, per second (not the congestion or bubble counters, nor the gauges); null when none is known',
    }),
  ),
  categories: recordOf(CATEGORY_NAMES, Nullable(Type.Number()), {
    description:
      "opafm's PM categories as fractions of their thresholds (1 = threshold reached); null when none of a category's counters is known",
  }),
});
/** One direction of a link: what `/links` rows, the stream and the dashboard's strokes are about. */
export type LinkDirectionState = Static<typeof LinkStateSchema>;

export const LinksQuery = Closed({
  sort: Type.Optional(
    Literals(['utilization', 'bytesPerSecond', 'transmitWaitFraction', 'id', ...CATEGORY_NAMES], {
      description: 'Ties, and sort=id, in natural id order (core1/2 before core1/10)',
    }),
  ),
  order: Type.Optional(Literals(['asc', 'desc'])),
  ...PageQueryFields,
  kind: Type.Optional(Literals(['isl', 'host'])),
  job: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Only the link directions the job’s traffic crosses now (GET /jobs/{id})',
    }),
  ),
});
export type LinksQuery = Static<typeof LinksQuery>;

/** The answer of `GET /api/v1/links` (also at `?time=`): link directions at one sampling tick. */
export const LinksAnswerSchema = Type.Object({
  time: Type.String({ description: 'The instant every page of this list was read at' }),
  links: Type.Array(LinkStateSchema),
  ...PageAnswerFields,
});

/** `GET /api/v1/links/export`: every direction of one instant, streamed. */
export const LinksExportQuery = Closed({
  format: Type.Optional(
    Type.Literal('ndjson', {
      description: 'ndjson (default): one link direction (LinkStateSchema) per line, in topology order',
    }),
  ),
  time: Type.Optional(TimeParam('The instant; absent = now')),
  kind: Type.Optional(Literals(['isl', 'host'])),
});
export type LinksExportQuery = Static<typeof LinksExportQuery>;
export type LinksAnswer = Static<typeof LinksAnswerSchema>;

/** `GET /port`: a switch's or host's ports, or one port in full. */
export const PortQuery = Closed({
  node: Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'The node: its name, NodeDescription, GUID (0x…) or LID (lid:12)',
  }),
  port: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 255, description: 'One port; absent: every port of the node' }),
  ),
});
export type PortQuery = Static<typeof PortQuery>;

/**
 * IBA PortInfo:PortPhysicalState 1..7 as ibportstate and ibstat print them (libibmad's
 * mad_dump_physportstate); 0 is "no state change", which a port never reports as its state.
 */
export const PHYSICAL_PORT_STATES = [
  'Sleep',
  'Polling',
  'Disabled',
  'PortConfigurationTraining',
  'LinkUp',
  'LinkErrorRecovery',
  'PhyTest',
] as const;
export type PhysicalPortState = (typeof PHYSICAL_PORT_STATES)[number];

/** The name of a PortPhysicalState code; null for a code outside 1..7. */
export function physicalStateName(code: number): PhysicalPortState | null {
  return Number.isInteger(code) ? (PHYSICAL_PORT_STATES[code - 1] ?? null) : null;
}

export const PortReplySchema = Type.Object({
  node: Type.Object({
    name: Type.String(),
    type: NodeTypeSchema,
    tier: Type.Integer(),
    guid: Type.String(),
    lid: Type.Integer(),
    description: Type.Optional(Type.String()),
    portCount: Type.Integer(),
    subnet: Type.Optional(Type.String({ description: 'Its subnet where several are watched' })),
  }),
  rails: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ description: 'The adapter’s node name (`node001/mlx5_1`)' }),
        device: Type.String({ description: 'The RDMA device its NodeDescription names (`mlx5_1`)' }),
        subnet: Type.Optional(Type.String({ description: 'Its subnet where several are watched' })),
        guid: Type.String(),
        lid: Type.Integer(),
        links: Type.Array(
          Type.Object({
            port: Type.Integer(),
            neighbour: PortRefSchema,
            linkId: Type.String(),
            rateGbps: Type.Number(),
            widthSpeed: Type.Optional(Type.String()),
            linkUp: Nullable(Type.Boolean()),
          }),
        ),
      }),
      {
        description:
          'When the name is a host of several adapters (rails, on one subnet or several): each one; `node` and `ports` are then its first rail’s',
      },
    ),
  ),
  time: Type.String({ description: 'The live tick the figures are of' }),
  ports: Type.Array(
    Type.Object({
      port: Type.Integer(),
      neighbour: PortRefSchema,
      linkId: Type.String(),
      kind: LinkKindSchema,
      rateGbps: Type.Number({ description: 'Signalling rate of the cable' }),
      widthSpeed: Type.Optional(
        Type.String({ description: 'Width × speed as discovery printed it (4xEDR)' }),
      ),
      linkUp: Nullable(Type.Boolean()),
      fabricType: FabricTypeSchema,
      mtu: Type.Optional(Type.Integer({ description: 'MTU of the link in bytes, when known' })),
      physicalState: Nullable(Literals(PHYSICAL_PORT_STATES), {
        description:
          "The port's PortInfo:PortPhysicalState as last read, as ibportstate prints it; null when unknown: `physicalStateUnknown` says why",
      }),
      physicalStateUnknown: Type.Optional(Type.String({ description: 'Why `physicalState` is null' })),
      out: Nullable(LinkStateSchema),
      in: Nullable(LinkStateSchema),
      totals: Nullable(
        Type.Object({
          time: Type.String({ description: 'When the port was last read' }),
          counters: recordOf(PORT_TOTAL_FIELDS, Nullable(Type.Number()), {
            description:
              "The port's own counters as last read, cumulative since the last clear (data in bytes); null when not reported",
          }),
        }),
        { description: 'null when unknown: `totalsUnknown` says why' },
      ),
      totalsUnknown: Type.Optional(Type.String({ description: 'Why `totals` is null' })),
      optics: Type.Optional(
        Type.Array(OpticReadingSchema, {
          description:
            "The port's transceiver readings (ENTITY-SENSOR-MIB) as the source last read them; absent when it has none",
        }),
      ),
    }),
    {
      description:
        'The cabled ports asked for, in port order: each direction with every counter rate and category',
    },
  ),
});
export type PortReply = Static<typeof PortReplySchema>;
