import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** True for addresses only this machine reaches (127/8, ::1, mapped, `localhost`), as the emulator's server. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
  return false;
}

/** The host name of a `Host` header value (`name:port`, `[v6]:port`), lower-cased; null if malformed. */
export function hostOfHeader(value: string): string | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s@]+)(?::\d{1,5})?$/.exec(value.trim());
  return m?.[1] ? m[1].toLowerCase() : null;
}

/** The host name of an `Origin` header (`http://name:port`); null for `null` or anything else. */
export function hostOfOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether a request to an API on loopback comes from this machine (Host and Origin loopback or allowed, no DNS rebinding); the refusal, or null. */
export function loopbackRequestAllowed(
  headers: { host?: string | undefined; origin?: string | undefined },
  allowedHosts: ReadonlySet<string>,
): string | null {
  const allowed = (name: string | null) =>
    name !== null && (isLoopbackHost(name) || allowedHosts.has(name.replace(/^\[|\]$/g, '')));
  const host = headers.host === undefined ? null : hostOfHeader(headers.host);
  if (!allowed(host)) {
    return `changes are refused for Host "${headers.host ?? ''}": open the dashboard at localhost or 127.0.0.1, or list the name in FABSCOPE_ALLOWED_HOSTS`;
  }
  if (headers.origin !== undefined && !allowed(hostOfOrigin(headers.origin))) {
    return `changes are refused from Origin "${headers.origin}": list its host in FABSCOPE_ALLOWED_HOSTS to allow it`;
  }
  return null;
}

export function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].trim());
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
