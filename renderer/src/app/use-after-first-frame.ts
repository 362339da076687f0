// The map and its pins go on screen before the side panel is rendered. The first load has usually
// arrived before React starts (app/boot.ts starts it while the first screen's chunk downloads), so
// without this the first render would also build the site list (every site sorted by title) and the
// pins would wait for it; the store's own "pins first" (app-store.ts) covers a load that ends later.
import { useEffect, useState } from 'react';

/**
 * False until the first frame has been painted, then true; after 100 ms at the latest (a hidden
 * window paints no frames).
 */
export function useAfterFirstFrame(): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (done) return;
    const finish = () => setDone(true);
    const latest = window.setTimeout(finish, 100);
    let soon = 0;
    const frame = requestAnimationFrame(() => {
      soon = window.setTimeout(finish, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(latest);
      clearTimeout(soon);
    };
  }, [done]);
  return done;
}
