/**
 * A colour of the current theme (a custom property of theme.css), for canvases that cannot use
 * CSS: read when they draw, so a theme change shows at the next frame. Falls back outside a page.
 *
 * Read once per theme: what theme.css chooses by — `data-theme` on <html> and the system's
 * `prefers-color-scheme` — names the colours held. getComputedStyle after the page changed makes
 * the browser recalculate its styles first, at once: the history chart drew twice a message with
 * it, ~1.5 ms each at fat-tree-27648.
 */
const held = new Map<string, string>();
let heldFor: string | null = null;
let lightScheme: MediaQueryList | null = null;

/** What the theme's colours depend on, as one string. */
function themeState(): string {
  if (!lightScheme && typeof matchMedia === 'function')
    lightScheme = matchMedia('(prefers-color-scheme: light)');
  return `${document.documentElement.getAttribute('data-theme') ?? 'system'} ${lightScheme?.matches ? 'light' : 'dark'}`;
}

export function themeColor(name: string, fallback: string): string {
  if (typeof document === 'undefined' || typeof getComputedStyle !== 'function') return fallback;
  const state = themeState();
  if (state !== heldFor) {
    held.clear();
    heldFor = state;
  }
  let value = held.get(name);
  if (value === undefined) {
    value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    held.set(name, value);
  }
  return value || fallback;
}
