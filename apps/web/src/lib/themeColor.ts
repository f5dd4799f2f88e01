/** A theme colour for canvases, cached per theme since getComputedStyle forces a style recalculation. */
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
