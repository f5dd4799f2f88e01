import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { HttpError } from './http-error.ts';

/** Loopback addresses, the same rules as apps/api/src/auth.ts (a test checks). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
  return false;
}

/** Refuses a change (not GET or HEAD) the server's host and token do not allow. */
export function checkChangeAllowed(
  request: IncomingMessage,
  protect: boolean,
  token: string | undefined,
): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  if (!protect) {
    // On loopback, a page elsewhere whose name resolves to 127.0.0.1 (DNS rebinding) sends its own Host.
    const host = /^(\[[^\]]+\]|[^:]+)(:\d+)?$/.exec(request.headers.host ?? '')?.[1] ?? '';
    if (!isLoopback(host))
      throw new HttpError(403, `changes are refused for Host "${request.headers.host ?? ''}"`);
    return;
  }
  if (!token) {
    throw new HttpError(
      403,
      'changes are refused: the emulator listens beyond loopback and has no token set',
    );
  }
  const given = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim() ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new HttpError(401, 'send Authorization: Bearer <token> to change the emulator');
  }
}
