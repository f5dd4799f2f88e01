import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGnmiTargets } from '../../../src/sources/gnmi/gnmi-targets.ts';

describe('the gNMI targets file', () => {
  it('reads addresses, transport, credentials by env or file and per-target options', () => {
    const targets = parseGnmiTargets(
      [
        '# leaf switches',
        'leaf1.dc1:6030 tls ca=/etc/fabscope/ca.pem server-name=leaf1 username=ro password-env=GNMI_PW',
        '[fd00::2] insecure name=leaf2 sample-ms=2000 encoding=json_ietf   # lab',
        '10.0.0.3 tls username=ro password-file=/run/secrets/gnmi cert=/c.pem key=/k.pem target=spine1',
      ].join('\n'),
    );
    expect(targets).toEqual([
      {
        host: 'leaf1.dc1',
        port: 6030,
        label: 'leaf1.dc1:6030',
        name: 'leaf1.dc1',
        transport: { kind: 'tls', ca: '/etc/fabscope/ca.pem', serverName: 'leaf1' },
        credentials: { username: 'ro', password: { env: 'GNMI_PW' } },
        sampleMs: 10_000,
        encoding: 'PROTO',
      },
      {
        host: 'fd00::2',
        port: 9339,
        label: '[fd00::2]:9339',
        name: 'leaf2',
        transport: { kind: 'insecure' },
        sampleMs: 2000,
        encoding: 'JSON_IETF',
      },
      {
        host: '10.0.0.3',
        port: 9339,
        label: '10.0.0.3:9339',
        name: '10.0.0.3',
        transport: { kind: 'tls', cert: '/c.pem', key: '/k.pem' },
        credentials: { username: 'ro', password: { file: '/run/secrets/gnmi' } },
        target: 'spine1',
        sampleMs: 10_000,
        encoding: 'PROTO',
      },
    ]);
  });

  it('tells apart two devices behind one address by their line', () => {
    const [a, b] = parseGnmiTargets('gw:9339 insecure name=a target=a\ngw:9339 insecure name=b target=b\n');
    expect([a?.label, b?.label]).toEqual(['gw:9339', 'gw:9339/line2']);
  });

  it.each([
    ['h insecure\nh:99999 insecure', 'targets line 2: "h:99999" is not HOST[:PORT] with a port in 1..65535'],
    ['h plaintext', 'targets line 1: expected "HOST[:PORT] insecure|tls'],
    ['h insecure ca=/x.pem', 'targets line 1: ca= needs tls, not insecure'],
    ['h tls cert=/c.pem', 'targets line 1: cert= and key= go together'],
    ['h tls username=u', 'targets line 1: username= needs password-env=VAR or password-file=FILE'],
    ['h tls password-env=P', 'targets line 1: a password needs username='],
    ['h tls password=hunter2', 'targets line 1: unknown option "password"'],
    ['h insecure sample-ms=5', 'targets line 1: sample-ms= must be an integer from 100 to 3600000, got "5"'],
    ['h insecure encoding=xml', 'targets line 1: encoding= must be proto, json_ietf or json, got "xml"'],
    ['h insecure name=', 'targets line 1: name= needs a value'],
    ['h insecure name=a name=b', 'targets line 1: name= given twice'],
    ['\nh insecure\nh insecure name=x', 'targets line 3: h:9339 is listed twice'],
    ['a insecure name=x\nb insecure name=x', 'targets line 2: name x is listed twice'],
    ['# nothing\n', 'targets: no target listed'],
  ])('refuses %j naming the line', (text, message) => {
    expect(() => parseGnmiTargets(text)).toThrow(message);
  });

  it('either reads a line or refuses it naming that line, whatever the line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (line) => {
        const text = `ok insecure\n${line.replaceAll('\n', ' ')}`;
        try {
          parseGnmiTargets(text);
        } catch (error) {
          expect((error as Error).message).toMatch(/^targets line 2: /);
        }
      }),
    );
  });
});
