// The first screen: the React root with the shell, on the store app/boot.ts has already started.
// boot.ts loads this chunk once its own calls have left.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import type { AppStore } from '../shared/store/app-store';
import { onHostLink } from '../api';
import { SelectionScope } from '../features/selection';

export function mount(root: HTMLElement, store: AppStore): void {
  createRoot(root).render(
    <StrictMode>
      <SelectionScope store={store}>
        <App store={store} onHostLink={onHostLink} />
      </SelectionScope>
    </StrictMode>,
  );
}
