import { type Static, Type } from '@sinclair/typebox';
import { Closed, Literals } from './common.ts';
import { PageAnswerFields, PageQueryFields } from './paging.ts';
import { TimeParam } from './time.ts';

/** The kinds of `/api/v1/events`: what the API records into its event log. */
export const EVENT_KINDS = [
  'adaptive-routing',
  'routing',
  'traffic',
  'fault',
  'link-state',
  'counter-reset',
  'threshold',
  'collection-gap',
  'collection',
  'subnet-manager',
  'alert',
  'topology',
  'alarm',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** How bad: `info` for changes and recoveries, then as the PM categories (warning, error, critical). */
export const EVENT_SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;
export type EventSeverity = (typeof EVENT_SEVERITIES)[number];

export const EventsQuery = Closed({
  from: TimeParam('Start'),
  to: Type.Optional(TimeParam('End; absent = now')),
  ...PageQueryFields,
});
export type EventsQuery = Static<typeof EventsQuery>;

export const EventsSchema = Type.Object({
  ...PageAnswerFields,
  events: Type.Array(
    Type.Object({
      time: Type.String({ format: 'date-time' }),
      kind: Literals(EVENT_KINDS),
      subject: Type.String({ description: 'A link id, a port `node/port`, or `fabric`' }),
      detail: Type.String({ description: 'What happened; changes are written old → new' }),
      severity: Literals(EVENT_SEVERITIES, {
        description:
          'info for changes and recoveries; warning, error, critical for PM thresholds crossed (1 ×, 3 ×, 10 ×), unexpected clears, collection gaps and stalls, the subnet manager gone',
      }),
    }),
    {
      description:
        'In time order. Pages go back in time: the first page holds the newest events, `next` the ones before them',
    },
  ),
});

export type EventList = Static<typeof EventsSchema>;
/** One entry of `/api/v1/events`: what changed on the fabric, and when. */
export type EventRecord = EventList['events'][number];
