// What App gives every panel, for a component rendered on its own: the UI context (the real store and
// the fake host's API, calls whose failure becomes a toast), the real confirmation dialog and toast
// region. What App would do on navigation (open a panel, open the form, select a site) is recorded
// instead, since the App around the component is not there.
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { render } from 'vitest-browser-react';
import { ConfirmDialog, useConfirmDialog } from '../../../renderer/src/shared/ui/dialog';
import { ToastRegion } from '../../../renderer/src/shared/ui/toast';
import { UiContext, type Toast, type Ui } from '../../../renderer/src/shared/ui/ui-context';
import { describeError } from '../../../renderer/src/shared/store/app-store';
import { createFakeHost, type FakeHost, type HostData } from './fake-host';

/** Navigation the component asked App for. */
export type Navigation = Array<{ to: 'panel' | 'form' | 'bulk' | 'select'; value: unknown }>;

export function Shell({ host, navigation, children }: { host: FakeHost; navigation: Navigation; children: ReactNode }) {
  const { state, confirm, close } = useConfirmDialog();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const seq = useRef(0);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const toast = useCallback<Ui['toast']>((message, options) => {
    const id = ++seq.current;
    setToasts((t) => [...t, { id, message, tone: options?.tone ?? 'info', ...(options?.action ? { action: options.action } : {}) }]);
  }, []);
  const call = useCallback<Ui['call']>(
    async (run) => {
      try {
        return await run();
      } catch (error) {
        toast(`That did not work: ${describeError(error)}`, { tone: 'error' });
        return undefined;
      }
    },
    [toast],
  );
  const ui = useMemo<Ui>(
    () => ({
      store: host.store,
      api: host.api,
      toast,
      confirm,
      call,
      openPanel: (panel, focus) => navigation.push({ to: 'panel', value: focus ? [panel, focus] : panel }),
      openSiteForm: (request) => navigation.push({ to: 'form', value: request }),
      openBulk: (kind) => navigation.push({ to: 'bulk', value: kind }),
      selectSite: (localId) => navigation.push({ to: 'select', value: localId }),
    }),
    [host, toast, confirm, call, navigation],
  );
  return (
    <UiContext.Provider value={ui}>
      {children}
      <ToastRegion toasts={toasts} dismiss={dismiss} />
      <ConfirmDialog state={state} onDone={close} />
    </UiContext.Provider>
  );
}

/**
 * A fake host with `data`, the store loaded from it, and `element(host)` rendered inside the shell.
 * Drafts (localStorage) of an earlier test are gone first: each test starts with a clean page.
 */
export async function renderWithHost(data: HostData, element: (host: FakeHost) => ReactNode) {
  localStorage.clear();
  const host = createFakeHost(data);
  await host.store.start();
  const navigation: Navigation = [];
  const screen = await render(
    <Shell host={host} navigation={navigation}>
      {element(host)}
    </Shell>,
  );
  return { host, navigation, screen };
}

export { entryView, PROFILE, siteView, statusView } from './fake-host';
