/**
 * Replaces addresses in a message (URLs, `ip:port`) with `<address>`: store and collector errors
 * name internal hosts, which clients beyond this machine have no business seeing.
 */
export function redactAddresses(message: string): string {
  return message
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"',;)]+/gi, '<address>')
    .replace(/\[[0-9a-f:.]+\](:\d+)?/gi, '<address>')
    .replace(/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, '<address>');
}
