import type { JobDetail } from '@fabscope/contracts';
import { useMemo } from 'react';
import type { Route } from '../../../api/types.ts';
import { jobHighlight } from '../../../lib/jobs.ts';
import { type ApiAnswer, useApiQuery } from '../../../state/useApiQuery.ts';
import type { InvestigateView } from '../../../state/viewState.ts';

export interface ShownRoute {
  /** The Route tab's answer: asked while the tab is open and both ends are chosen. */
  route: ApiAnswer<Route>;
  /** What the fabric drawing highlights: the Jobs tab's job, else the Route tab's route. */
  shown: Route | null;
}

/** The highlighted route: the Route tab's (re-read while a flow carries it) or the Jobs tab's job. */
export function useShownRoute(view: InvestigateView): ShownRoute {
  const { tool, from, to, job } = view;
  const route = useApiQuery<Route>(
    ['route', from, to],
    tool === 'route' && from && to && from !== to ? (api, signal) => api.getRoute(from, to, signal) : null,
    { forget: true, live: { while: (r) => r.source === 'flow' } },
  );
  const jobDetail = useApiQuery<JobDetail>(
    ['job', job],
    tool === 'jobs' && job !== null ? (api, signal) => api.getJob(job, signal) : null,
    { keepPrevious: true, live: true },
  );
  const detail = tool === 'jobs' && jobDetail.status === 'ready' ? jobDetail.data : null;
  const shownJob = useMemo(
    () => (detail && detail.job.id === job ? jobHighlight(detail) : null),
    [detail, job],
  );
  return { route, shown: shownJob ?? (route.status === 'ready' ? route.data : null) };
}
