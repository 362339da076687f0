// Gives the page one selection of sites (the list, the map and the table share it) and keeps it
// honest: a site that is removed, or belongs to a profile no longer shown, leaves the selection.
import { useEffect, useState, type ReactNode } from 'react';
import type { AppStore } from '../../shared/store/app-store';
import { keepExisting } from './selection-rules';
import { SelectionContext, SelectionStore } from './selection-store';

export function SelectionScope({ store, children }: { store: AppStore; children: ReactNode }) {
  const [selection] = useState(() => new SelectionStore());
  useEffect(() => store.onSites(() => selection.update((current) => keepExisting(current, (id) => store.getState().sites.has(id)))), [store, selection]);
  return <SelectionContext.Provider value={selection}>{children}</SelectionContext.Provider>;
}
