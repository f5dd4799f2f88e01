import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSnmpTargets } from '../../../src/sources/snmp/snmp-targets.ts';

describe('the SNMP targets file', () => {
  it('reads v2c and v3 agents, default port 161, IPv6 in brackets, comments and blank lines', () => {
    const targets = parseSnmpTargets(
      [
        '# leaf switches',
        'leaf1.example v2c public',
        '10.0.0.2:1161 v2c s3cret   # a non-standard port',
        '',
        '[fd00::3] v3 monitor',
        '[fd00::4]:162 v3 monitor SHA256 authpass AES privpass',
        'spine1 v3 monitor md5 authpass',
        'spine2 v3 monitor context=vlan-10',
      ].join('\n'),
    );
    expect(targets.map((t) => [t.label, t.credentials])).toEqual([
      ['leaf1.example:161', { version: '2c', community: 'public' }],
      ['10.0.0.2:1161', { version: '2c', community: 's3cret' }],
      ['[fd00::3]:161', { version: '3', user: 'monitor' }],
      [
        '[fd00::4]:162',
        {
          version: '3',
          user: 'monitor',
          auth: { protocol: 'sha256', key: 'authpass' },
          priv: { protocol: 'aes', key: 'privpass' },
        },
      ],
      ['spine1:161', { version: '3', user: 'monitor', auth: { protocol: 'md5', key: 'authpass' } }],
      ['spine2:161', { version: '3', user: 'monitor', context: 'vlan-10' }],
    ]);
    expect(targets[2]?.host).toBe('fd00::3');
  });

  it('tells agents on one address apart by their line, never by their secret', () => {
    const targets = parseSnmpTargets('127.0.0.1:1161 v2c a\n127.0.0.1:1161 v2c b');
    expect(targets.map((t) => t.label)).toEqual(['127.0.0.1:1161', '127.0.0.1:1161/line2']);
    expect(() => parseSnmpTargets('h v2c a\nh v2c a')).toThrow(
      'targets line 2: h:161 is listed twice with the same credentials',
    );
  });

  it.each([
    ['h', /expected "HOST\[:PORT\] v2c COMMUNITY"/],
    ['h v2c', /expected/],
    ['h v2c a b', /expected/],
    ['h v1 public', /expected/],
    ['h:0 v2c a', /"h:0" is not HOST\[:PORT\] with a port in 1\.\.65535/],
    ['h:70000 v2c a', /port in 1\.\.65535/],
    ['h v3', /expected/],
    ['h v3 u sha', /expected/],
    ['h v3 u sha1 k', /auth protocol must be one of md5, sha, .*got "sha1"/],
    ['h v3 u sha k aes128 k2', /priv protocol must be one of des, aes, .*got "aes128"/],
    ['h v3 u context=a context=b', /context= given twice/],
  ])('names the line of %j', (line, message) => {
    expect(() => parseSnmpTargets(`ok v2c public\n\n${line}`)).toThrow(message);
    expect(() => parseSnmpTargets(`ok v2c public\n\n${line}`)).toThrow(/^targets line 3: /);
  });

  it('refuses a file with no agent', () => {
    expect(() => parseSnmpTargets('# nothing yet\n')).toThrow('targets: no agent listed');
  });

  it('names the line of the first bad one among any number of good ones', () => {
    fc.assert(
      fc.property(fc.nat(30), fc.nat(30), (before, after) => {
        const lines = [
          ...Array.from({ length: before }, (_, i) => `10.0.${i}.1 v2c public`),
          '10.9.9.9 v2c',
          ...Array.from({ length: after }, (_, i) => `10.1.${i}.1 v2c public`),
        ];
        expect(() => parseSnmpTargets(lines.join('\n'))).toThrow(new RegExp(`^targets line ${before + 1}: `));
      }),
    );
  });
});
