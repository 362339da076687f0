// Starts the first load as early as the page can: main.tsx imports this right after csp.ts, so the
// calls for status, settings and every site leave while the rest of the bundle (React, Leaflet, the
// panels) is still being evaluated, and the host builds its answers meanwhile. A page sends a fetch
// only once the task that asked for it has ended, so the rest of the bundle waits one task for it.
import type { AppStore } from '../shared/store/app-store';
import { createAppStore } from './store';
import { getApi, onApiEvent } from '../api';

/** The page's store, already loading; or why it could not be made (no bridge to the host). */
export const booted: { store: AppStore; error: null } | { store: null; error: unknown } = (() => {
  try {
    const store = createAppStore(getApi(), onApiEvent);
    void store.start();
    return { store, error: null };
  } catch (error) {
    return { store: null, error };
  }
})();

// Lets the calls leave now, not after the whole bundle has run (main.tsx's other imports wait for this).
await new Promise<void>((resolve) => setTimeout(resolve, 0));
