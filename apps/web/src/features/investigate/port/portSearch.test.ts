import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findOption, openOnFind, optionsForTyped, parsePortTarget, portTargetText } from './portSearch.ts';

describe('the port search box', () => {
  it('reads a port, a node, a GUID and a LID', () => {
    expect(parsePortTarget(' edge1/4 ')).toEqual({ node: 'edge1', port: 4 });
    expect(parsePortTarget('edge1')).toEqual({ node: 'edge1' });
    expect(parsePortTarget('0x0002c903000a1b2c')).toEqual({ node: '0x0002c903000a1b2c' });
    expect(parsePortTarget('12')).toEqual({ node: 'lid:12' });
    expect(parsePortTarget('lid:12')).toEqual({ node: 'lid:12' });
    expect(parsePortTarget('MT4123 ConnectX6/1')).toEqual({ node: 'MT4123 ConnectX6', port: 1 });
    expect(parsePortTarget('a/b/300')).toEqual({ node: 'a/b/300' });
    expect(parsePortTarget('  ')).toBeNull();
  });

  it('a port target written for the URL reads back the same', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.-]{0,20}$/),
        fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
        (node, port) => {
          const target = port === undefined ? { node } : { node, port };
          expect(parsePortTarget(portTargetText(target))).toEqual(target);
        },
      ),
    );
  });
});

describe('Find’s list', () => {
  it('reads each match by what opens, its kind, and what matched where that is not the name', () => {
    expect(
      findOption({ target: 'nodeA', type: 'host', field: 'name', text: 'nodeA', rank: 'prefix' }),
    ).toEqual({
      value: 'nodeA',
      label: 'nodeA · host',
    });
    expect(
      findOption({ target: 'edge1/4', type: 'switch', field: 'port', text: 'edge1/4', rank: 'exact' }).label,
    ).toBe('edge1/4 · port');
    expect(
      findOption({
        target: 'core1',
        type: 'switch',
        field: 'guid',
        text: '0x0011750101000002',
        rank: 'substring',
      }).label,
    ).toBe('core1 · switch · GUID 0x0011750101000002');
  });

  it('offers no option of an answer to older text: Enter then opens what was typed', () => {
    const found = {
      query: 'nod',
      total: 1,
      matches: [{ target: 'nodeA', type: 'host', field: 'name', text: 'nodeA', rank: 'prefix' }],
    } as Parameters<typeof optionsForTyped>[0];
    expect(optionsForTyped(found, 'nod').map((o) => o.value)).toEqual(['nodeA']);
    expect(optionsForTyped(found, 'EDGE1/4')).toEqual([]);
    expect(optionsForTyped(null, 'nod')).toEqual([]);
    // Open waits for the answer to the text as typed, then takes its best match, or the text when none.
    expect(openOnFind(found, 'EDGE1/4')).toEqual({ wait: true });
    expect(openOnFind(null, 'EDGE1/4')).toEqual({ wait: true });
    expect(openOnFind(found, 'nod')).toEqual({ open: 'nodeA' });
    expect(openOnFind({ ...found, query: 'zz', total: 0, matches: [] }, 'zz')).toEqual({ openTyped: true });
  });
});
