import type { FabricType, LinkDirectionState } from '@fabscope/contracts';
import { formatRate } from '@fabscope/contracts/units';
import { useState } from 'react';
import { DataTable, num } from '../../components/DataTable.tsx';
import { fabricTerms } from '../../lib/fabricTerms.ts';
import { formatPercent } from '../../lib/format.ts';
import type { LayoutChannel, LayoutNode } from '../../lib/layout.ts';
import { usePreference } from '../../state/preferences.ts';

interface DrawingTableProps {
  channels: readonly LayoutChannel[];
  nodes: readonly LayoutNode[];
  fabricType: FabricType;
  samples: ReadonlyMap<string, LinkDirectionState> | null;
  onSelectChannel?: (id: string) => void;
}

/** The drawing as a table, one row per direction, so keyboard and screen-reader users reach every stroke. */
export function DrawingTable({ channels, nodes, fabricType, samples, onSelectChannel }: DrawingTableProps) {
  const [open, setOpen] = useState(false);
  const unit = usePreference('rateUnit');
  const networkOf = new Map(nodes.map((n) => [n.name, n.network]));
  const mixed = nodes.some((n) => n.network !== undefined);
  const terms = (c: LayoutChannel) =>
    fabricTerms(networkOf.get(c.from.node) ?? networkOf.get(c.to.node) ?? fabricType);
  const anyWait = channels.some((c) => terms(c).waitCounter !== null);
  return (
    <details className="drawing-table" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Table of the drawing ({channels.length} link directions)</summary>
      {open && (
        <DataTable
          label="Link directions of the drawing"
          className="link-table"
          hiddenCaption="Link directions of the drawing with their values"
          columns={[
            'Link (from → to)',
            mixed && 'Network',
            num('Util %'),
            num('Rate'),
            anyWait && num('Wait %'),
            'State',
          ]}
        >
          {channels.map((c) => {
            const s = samples?.get(c.id);
            const t = terms(c);
            const state =
              s === undefined ? 'no sample' : s.linkUp === false ? 'down' : s.stale ? 'stale' : 'up';
            return (
              <tr key={c.id} data-channel-id={c.id}>
                <th scope="row" className="mono">
                  {onSelectChannel ? (
                    <button type="button" className="link-button" onClick={() => onSelectChannel(c.id)}>
                      {c.from.node}/{c.from.port} → {c.to.node}/{c.to.port}
                    </button>
                  ) : (
                    `${c.from.node}/${c.from.port} → ${c.to.node}/${c.to.port}`
                  )}
                </th>
                {mixed && <td>{t.name}</td>}
                <td className="num">{formatPercent(s?.utilization)}</td>
                <td className="num">{formatRate(s?.bytesPerSecond, unit)}</td>
                {anyWait && (
                  <td className="num" title={t.waitCounter ? undefined : `no wait counter on ${t.name}`}>
                    {t.waitCounter ? formatPercent(s?.transmitWaitFraction) : '—'}
                  </td>
                )}
                <td>{state}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </details>
  );
}
