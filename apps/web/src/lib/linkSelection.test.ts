import { describe, expect, it } from 'vitest';
import { twoTier } from '../test/testTopologies.ts';
import {
  channelIdAt,
  MAX_SELECTED_LINKS,
  parseLinkSelection,
  selectLink,
  serializeLinkSelection,
} from './linkSelection.ts';
import { channelIndexById } from './route.ts';

describe('link selection', () => {
  it('round-trips through the URL, dropping junk and duplicates', () => {
    const ids = ['edge1/3->core1/1', 'nodeA/1->edge1/1'];
    expect(parseLinkSelection(serializeLinkSelection(ids))).toEqual(ids);
    expect(parseLinkSelection('edge1/3->core1/1,,garbage,edge1/3->core1/1')).toEqual(['edge1/3->core1/1']);
    expect(serializeLinkSelection([])).toBeNull();
  });

  it('puts the newest first and keeps at most the limit', () => {
    let ids: string[] = [];
    for (let i = 0; i < MAX_SELECTED_LINKS + 2; i++) ids = selectLink(ids, `a/${i}->b/${i}`);
    expect(ids).toHaveLength(MAX_SELECTED_LINKS);
    expect(ids[0]).toBe(`a/${MAX_SELECTED_LINKS + 1}->b/${MAX_SELECTED_LINKS + 1}`);
    expect(selectLink(['x->y', 'y->x'], 'y->x')).toEqual(['y->x', 'x->y']);
  });

  it('names channels as the stream numbers them', () => {
    const topology = twoTier(2, 2, 2);
    for (const [id, c] of channelIndexById(topology)) expect(channelIdAt(topology, c)).toBe(id);
    expect(channelIdAt(topology, topology.links.length * 2)).toBeNull();
  });
});
