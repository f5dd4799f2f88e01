import { describe, expect, it } from 'vitest';
import { editSection, locateSection, readSettings, type Section } from '../src/fabric-manager/opafm-xml.ts';
import { parseCommandLine } from '../src/fabric-manager/run-command.ts';
import { unifiedDiff } from '../src/fabric-manager/section-diff.ts';

const wrap = (sm: string, eol = '\n') =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<Config>',
    '<Common>',
    '  <Sm>',
    sm,
    '  </Sm>',
    '</Common>',
    '</Config>',
    '',
  ]
    .join(eol)
    .replace(/\n/g, eol);

function section(text: string): Section {
  const found = locateSection(text);
  if ('reason' in found) throw new Error(found.reason);
  return found;
}

describe("opafm.xml's <AdaptiveRouting>, edited in place", () => {
  it('keeps comments, CRLF line ends and bytes that are not UTF-8 around the values it changes', () => {
    // latin1: one character per byte, as the provider reads the file; \u00e9 is a lone 0xE9 byte.
    const text = wrap(
      [
        '    <!-- caf\u00e9: <AdaptiveRouting> in a comment is not the section -->',
        '    <AdaptiveRouting>',
        '      <Enable> 0 </Enable> <!-- 1 = Enable -->',
        '      <Threshold>3</Threshold>',
        '    </AdaptiveRouting>',
      ].join('\n'),
      '\r\n',
    );
    const edited = editSection(text, section(text), { enabled: true, threshold: 7 });
    expect(edited).toBe(text.replace('<Enable> 0 </Enable>', '<Enable> 1 </Enable>').replace('>3<', '>7<'));
    expect(readSettings(edited, section(edited))).toEqual({
      enabled: true,
      lostRouteOnly: false,
      algorithm: 2,
      arFrequency: 0,
      threshold: 7,
    });
  });

  it("adds a value the section leaves out, indented as its siblings; reads the file's defaults for it", () => {
    const text = wrap(
      ['    <AdaptiveRouting>', '      <Enable>1</Enable>', '    </AdaptiveRouting>'].join('\n'),
    );
    const located = section(text);
    expect(readSettings(text, located)).toMatchObject({ enabled: true, algorithm: 2, threshold: 3 });
    expect(editSection(text, located, { arFrequency: 4 })).toBe(
      text.replace('</Enable>\n', '</Enable>\n      <ARFrequency>4</ARFrequency>\n'),
    );
  });

  it('fills a self-closing value or section', () => {
    const single = wrap('    <AdaptiveRouting><Algorithm/></AdaptiveRouting>');
    expect(editSection(single, section(single), { algorithm: 1 })).toBe(
      single.replace('<Algorithm/>', '<Algorithm>1</Algorithm>'),
    );
    const empty = wrap('    <AdaptiveRouting/>');
    expect(editSection(empty, section(empty), { enabled: true })).toBe(
      empty.replace(
        '<AdaptiveRouting/>',
        '<AdaptiveRouting>\n      <Enable>1</Enable>\n    </AdaptiveRouting>',
      ),
    );
  });

  it('says why it will not manage a file: an FM instance overrides the section, none, a bad value, bad XML', () => {
    const override = `${wrap('    <AdaptiveRouting/>').replace('</Config>', '')}<Fm><Sm><AdaptiveRouting/></Sm></Fm>\n</Config>\n`;
    expect(locateSection(override)).toEqual({
      reason: expect.stringMatching(/overrides <AdaptiveRouting> .*line 9/),
    });
    expect(locateSection(wrap('    <Other/>'))).toEqual({
      reason: expect.stringMatching(/no <AdaptiveRouting>/),
    });
    expect(locateSection(wrap('    <AdaptiveRouting>'))).toEqual({
      reason: expect.stringMatching(/not well-formed XML: line 6: <\/Sm> closes <AdaptiveRouting>/),
    });
    const bad = wrap('    <AdaptiveRouting><Threshold>x</Threshold></AdaptiveRouting>');
    expect(readSettings(bad, section(bad))).toEqual({
      reason: 'opafm.xml <AdaptiveRouting><Threshold> at line 5 is "x", not 0..7',
    });
  });
});

describe('unified diff of a section', () => {
  it('numbers hunks from the first line given, removals before additions, 3 lines of context', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    const after = ['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h', 'i'];
    expect(unifiedDiff(before, after, { label: 'x.xml', firstLine: 100 })).toBe(
      [
        '--- x.xml',
        '+++ x.xml',
        '@@ -101,7 +101,7 @@',
        ' b',
        ' c',
        ' d',
        '-e',
        '+E',
        ' f',
        ' g',
        ' h',
        '',
      ].join('\n'),
    );
    expect(unifiedDiff(before, before, { label: 'x.xml' })).toBe('');
  });
});

describe('FABSCOPE_OPAFM_APPLY as words, without a shell', () => {
  it('splits on whitespace; quotes group and nothing else is interpreted', () => {
    expect(parseCommandLine(`systemctl  reload "opa fm" '$HOME' a"b c"`)).toEqual([
      'systemctl',
      'reload',
      'opa fm',
      '$HOME',
      'ab c',
    ]);
    expect(() => parseCommandLine('reload "fm')).toThrow(/unterminated "/);
  });
});
