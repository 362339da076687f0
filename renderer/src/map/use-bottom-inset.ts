// The map's bottom, measured as it changes: how much of the right side the bottom-right stack takes up,
// from the bottom (My location's panel grows) — the compact layout's floating site card keeps above it
// (--map-bottom-right, app/compact.css) — and whether the bottom is narrow (data-narrow).
import { useEffect, type RefObject } from 'react';

/** The bottom's width, in rem, at or under which it is marked narrow (data-narrow). */
const NARROW_REM = 31;

export function useBottomInset(container: RefObject<HTMLElement | null>, bottom: RefObject<HTMLElement | null>, right: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const stack = bottom.current;
    const corner = right.current;
    const holder = container.current?.closest<HTMLElement>('.body') ?? document.documentElement;
    if (!stack || !corner) return;
    const publish = () => {
      const wrap = container.current?.getBoundingClientRect();
      if (!wrap) return;
      // Narrow (beside the docked form, or a small window): My location's panel takes the coordinates'
      // room and averaging is set tighter (features/location/location.css).
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      stack.toggleAttribute('data-narrow', stack.getBoundingClientRect().width <= NARROW_REM * rem);
      holder.style.setProperty('--map-bottom-right', `${Math.max(0, Math.ceil(wrap.bottom - corner.getBoundingClientRect().top))}px`);
    };
    // The observer reports the first sizes too, after the page's layout and before its paint: read
    // then, not here in the commit, where it would force an extra layout before the map's first frame.
    const observer = new ResizeObserver(publish);
    observer.observe(stack);
    observer.observe(corner);
    return () => {
      observer.disconnect();
      holder.style.removeProperty('--map-bottom-right');
    };
  }, [container, bottom, right]);
}
