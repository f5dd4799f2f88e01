/**
 * A colour of the current theme (a custom property of theme.css), for canvases that cannot use
 * CSS: read when they draw, so a theme change shows at the next frame. Falls back outside a page.
 */
export function themeColor(name: string, fallback: string): string {
  if (typeof document === 'undefined' || typeof getComputedStyle !== 'function') return fallback;
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}
