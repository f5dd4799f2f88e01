import type { FabricType, FindReply, PortReply } from '@fabscope/contracts';
import { type FormEvent, memo, useEffect, useMemo, useState } from 'react';
import { Combobox } from '../../../components/Combobox.tsx';
import { DataTable, num } from '../../../components/DataTable.tsx';
import { ErrorNote } from '../../../components/ErrorNote.tsx';
import { fabricTerms } from '../../../lib/fabricTerms.ts';
import { formatClock } from '../../../lib/format.ts';
import { type ApiLoad, useApiQuery } from '../../../state/useApiQuery.ts';
import { SwitchPortsTable } from '../../tiers/SwitchPortsTable.tsx';
import { rowsFromPortReply } from '../../tiers/switchPortRows.ts';
import { PortDetail } from './PortDetail.tsx';
import { openOnFind, optionsForTyped, parsePortTarget, portTargetText } from './portSearch.ts';
import { type Rail, railRows } from './rails.ts';

interface PortPanelProps {
  /** What the URL's `port=` holds: `edge1/4`, `edge1`, a GUID or a LID; null: nothing chosen. */
  target: string | null;
  onTarget: (text: string | null) => void;
  onOpenHistory: (id: string) => void;
  /** Opens a direction's flows and jobs (the Link tab). */
  onSelectLink: (id: string) => void;
}

/** Find's type-ahead: a page of matches, enough to pick from while typing. */
const FIND_SHOWN = 20;

/**
 * Find a node or a port by part of its name, description, GUID, LID or `node/port`, any case, in the
 * Investigate panel's head: the API matches each keystroke (GET /find), Open takes the best match.
 */
export const PortSearch = memo(function PortSearch({ onTarget }: { onTarget: (text: string) => void }) {
  const [text, setText] = useState('');
  const q = text.trim();
  const load = useMemo(
    (): ApiLoad<FindReply> | null => (q === '' ? null : (api, signal) => api.find(q, FIND_SHOWN, signal)),
    [q],
  );
  const answer = useApiQuery(['find', q], load, { keepPrevious: true, staleTimeMs: 30_000 });
  const found = answer.status === 'ready' && q !== '' ? answer.data : null;
  const options = useMemo(() => optionsForTyped(found, q), [found, q]);
  const openTyped = (typed: string) => {
    const target = parsePortTarget(typed);
    if (target) onTarget(portTargetText(target));
  };
  // Open pressed before the answer to the text came: opened when it comes, or as typed if the search fails.
  const [pending, setPending] = useState<string | null>(null);
  const open = (typed: string) => {
    const next = openOnFind(found, typed);
    if ('open' in next) onTarget(next.open);
    else if ('openTyped' in next || answer.status === 'error') openTyped(typed);
    else setPending(typed);
  };
  useEffect(() => {
    if (pending === null) return;
    if (pending !== q) return setPending(null);
    const next = openOnFind(found, pending);
    if ('wait' in next && answer.status !== 'error') return;
    setPending(null);
    if ('open' in next) onTarget(next.open);
    else openTyped(pending);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    open(q);
  };
  return (
    <search>
      <form className="port-search" aria-label="Find a node or port" onSubmit={submit}>
        <Combobox
          label="Find"
          listLabel="Nodes and ports found"
          draft={text}
          setDraft={setText}
          options={options}
          total={found?.query === q ? found.total : null}
          onPick={onTarget}
          onCommitTyped={open}
          placeholder="name, node/port, GUID or LID"
          noneText={(typed) => `nothing matches “${typed}”`}
        />
        <button type="submit" className="btn btn-small">
          Open
        </button>
      </form>
    </search>
  );
});

/** A port's page (`port=edge1/4`) with both directions' figures, or a node's ports (`port=edge1`). */
export function PortPanel({ target, onTarget, onOpenHistory, onSelectLink }: PortPanelProps) {
  // Memoized on the text: the same target is the same question (and the same query key).
  const parsed = useMemo(() => (target === null ? null : parsePortTarget(target)), [target]);
  const load = useMemo(
    (): ApiLoad<PortReply> | null =>
      parsed ? (api, signal) => api.getPort(parsed.node, parsed.port, signal) : null,
    [parsed],
  );
  const answer = useApiQuery(['port', parsed?.node, parsed?.port], load, {
    keepPrevious: true,
    live: true,
  });
  if (!parsed)
    return <p className="placeholder">Find a node or a port above, or open one from the Link tab.</p>;
  if (answer.status === 'error') return <ErrorNote message={`Port: ${answer.message}`} />;
  if (answer.status !== 'ready') return <p className="placeholder">Reading {target}…</p>;
  const { node, ports, time, rails } = answer.data;
  const one = parsed.port !== undefined ? ports[0] : undefined;
  // GUIDs and LIDs where the node's networks have them: an Ethernet switch has neither.
  const terms = nodeTerms(ports.map((p) => p.fabricType));
  if (rails && rails.length > 1 && !one) {
    return <HostRails host={parsed.node} rails={rails} time={time} onTarget={onTarget} />;
  }
  return (
    <section className="port-page" aria-label={one ? `Port ${node.name}/${one.port}` : `Node ${node.name}`}>
      <h3 className="mono">
        {node.name}
        {one ? `/${one.port}` : ''}
      </h3>
      <p className="hint">
        {node.type}, tier {node.tier}
        {terms.hasGuids && (
          <>
            {' · GUID '}
            <span className="mono">{node.guid}</span>
          </>
        )}
        {terms.hasLids && node.lid > 0 ? ` · LID ${node.lid}` : ''}
        {node.description && node.description !== node.name ? (
          <>
            {' · NodeDescription '}
            <span className="mono">“{node.description}”</span>
          </>
        ) : (
          ''
        )}{' '}
        · at {formatClock(Date.parse(time))}
      </p>
      {one ? (
        <PortDetail
          nodeName={node.name}
          port={one}
          onTarget={onTarget}
          onOpenHistory={onOpenHistory}
          onSelectLink={onSelectLink}
        />
      ) : (
        <SwitchPortsTable
          caption={<>Ports of {node.name}</>}
          rows={rowsFromPortReply(ports)}
          onOpenPort={(r) => onTarget(`${node.name}/${r.port}`)}
          portTitle="This port's page: its counters, totals and neighbour"
          onOpenPeer={(r) => onTarget(`${r.peer}/${r.peerPort}`)}
          withState
        />
      )}
    </section>
  );
}

/** A host of several adapters (`port=node001`): each rail, its subnet, GUID, LID and link; a rail opens its page. */
function HostRails({
  host,
  rails,
  time,
  onTarget,
}: {
  host: string;
  rails: readonly Rail[];
  time: string;
  onTarget: (text: string) => void;
}) {
  return (
    <section className="port-page" aria-label={`Host ${host}`}>
      <h3 className="mono">{host}</h3>
      <p className="hint">
        host of {rails.length} adapters (rails) · at {formatClock(Date.parse(time))}
      </p>
      <DataTable
        label={`Rails of ${host}`}
        columns={['Rail', 'Device', 'Subnet', 'GUID', num('LID'), 'Link']}
      >
        {railRows(rails).map((r) => (
          <tr key={r.name}>
            <td className="mono">
              <button type="button" className="link-button" onClick={() => onTarget(r.name)}>
                {r.name}
              </button>
            </td>
            <td className="mono">{r.device}</td>
            <td className="mono">{r.subnet}</td>
            <td className="mono">{r.guid}</td>
            <td className="num">{r.lid}</td>
            <td>{r.links}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

/** A node's GUID and LID exist when one of its ports is on a network that has them. */
function nodeTerms(types: readonly FabricType[]): { hasGuids: boolean; hasLids: boolean } {
  if (types.length === 0) return { hasGuids: true, hasLids: true };
  return {
    hasGuids: types.some((t) => fabricTerms(t).hasGuids),
    hasLids: types.some((t) => fabricTerms(t).hasLids),
  };
}
