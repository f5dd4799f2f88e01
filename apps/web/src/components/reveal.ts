/** The share of the window's height from its top within which a result counts as where you look. */
const IN_VIEW = 0.5;

/**
 * Where to scroll so `target` starts just under the sticky header; null when it already starts in the top
 * half of what the window shows below the header (a click beside it scrolls nothing).
 */
export function revealTop(
  target: { top: number },
  view: { scrollY: number; height: number; headerBottom: number },
): number | null {
  const visibleTop = view.headerBottom;
  const visibleHeight = view.height - view.headerBottom;
  if (target.top >= visibleTop && target.top <= visibleTop + visibleHeight * IN_VIEW) return null;
  return Math.max(0, view.scrollY + target.top - view.headerBottom - 8);
}

/**
 * After the page has drawn what a click opened, brings the element `selector` names to the top of the
 * window (below the sticky header): the result lands where the user looks, not ~1,800 px down.
 */
export function revealAfterRender(selector: string, headerSelector = '.app-top'): void {
  // Two frames: the first is React's commit of the click's state, the second its layout.
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const el = document.querySelector(selector);
      if (!el) return;
      const header = document.querySelector(headerSelector)?.getBoundingClientRect().bottom ?? 0;
      const top = revealTop(el.getBoundingClientRect(), {
        scrollY: window.scrollY,
        height: window.innerHeight,
        headerBottom: Math.max(0, header),
      });
      if (top === null) return;
      const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      window.scrollTo({ top, behavior: smooth ? 'smooth' : 'auto' });
    }),
  );
}
