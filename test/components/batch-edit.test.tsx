// Acting on many sites from the list: Shift/Ctrl-click and "Select all shown" build the selection,
// the bar says how many are selected, and "Edit together…" previews per site what changes before
// one batch is queued; a site that cannot take the change holds the batch until it is left out.
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { SitesPanel } from '../../renderer/src/features/sites/sites-panel';
import { SelectionContext, SelectionStore } from '../../renderer/src/features/selection/index';
import { NO_FILTER } from '../../renderer/src/shared/site-filter';
import { renderWithHost, siteView } from './support/shell';

const SITES = [
  siteView({ localId: 'L1', name: 'Alder', siteId: '101', height: 30, group: 'North', pinStyle: 1, latitude: 45, longitude: -111 }),
  siteView({ localId: 'L2', name: 'Birch', siteId: '102', height: 40, group: 'South', pinStyle: 2, latitude: 45.1, longitude: -111 }),
  siteView({ localId: 'L3', name: 'Cedar', siteId: '103', height: 24, group: 'North', pinStyle: 1, latitude: 45.2, longitude: -111 }),
  siteView({ localId: 'L4', name: 'Dogwood', siteId: '104', height: null, group: 'East', pinStyle: 1, latitude: 45.3, longitude: -111 }),
];

async function setup(filter = NO_FILTER) {
  const selection = new SelectionStore();
  const rendered = await renderWithHost({ sites: SITES }, () => (
    <SelectionContext.Provider value={selection}>
      <div style={{ display: 'flex', flexDirection: 'column', height: 700 }}>
        <SitesPanel
          selectedId={null}
          onAddSite={() => undefined}
          movingId={null}
          onToggleMove={() => undefined}
          draftsVersion={0}
          onDraftsChanged={() => undefined}
          filter={filter}
          onFilterChange={() => undefined}
          mapFollowsList={false}
          onMapFollowsListChange={() => undefined}
        />
      </div>
    </SelectionContext.Provider>
  ));
  return { ...rendered, selection };
}

const selectedNames = () => [...document.querySelectorAll('[role="row"][aria-selected="true"] .row-name')].map((el) => el.firstChild?.textContent);

describe('acting on many sites from the list', () => {
  it('selects with Ctrl-click and a Shift-click range, and shows how many are selected', async () => {
    const { screen, navigation } = await setup();
    await screen.getByRole('button', { name: /^Alder/ }).click();
    expect(navigation).toEqual([{ to: 'select', value: 'L1' }]);
    await userEvent.keyboard('{Shift>}');
    await screen.getByRole('button', { name: /^Cedar/ }).click();
    await userEvent.keyboard('{/Shift}');
    await expect.poll(selectedNames).toEqual(['Alder', 'Birch', 'Cedar']);
    await userEvent.keyboard('{Control>}');
    await screen.getByRole('button', { name: /^Birch/ }).click();
    await userEvent.keyboard('{/Control}');
    await expect.poll(selectedNames).toEqual(['Alder', 'Cedar']);
    await expect.element(screen.getByRole('status').filter({ hasText: 'selected' })).toHaveTextContent('2 selected');
    // Building a selection does not jump to a site.
    expect(navigation).toHaveLength(1);
    await screen.getByRole('button', { name: 'Deselect all' }).click();
    await expect.poll(selectedNames).toEqual([]);
  });

  it('exports the selected sites in the format chosen', async () => {
    const { screen, host } = await setup();
    await screen.getByRole('button', { name: 'Select all shown' }).click();
    await screen.getByLabelText('Export format').selectOptions('KML');
    await screen.getByRole('button', { name: 'Export', exact: true }).click();
    await expect.poll(() => host.callsOf('exportSites').map(([format, { localIds }]) => [format, [...(localIds ?? [])].sort()])).toEqual([['kml', SITES.map((site) => site.localId).sort()]]);
    await expect.element(screen.getByText(`Exported ${SITES.length} sites to sites.kml.`)).toBeVisible();
  });

  it('previews a batch per site, then queues it once with the revisions the preview saw', async () => {
    const { screen, host } = await setup();
    await screen.getByRole('button', { name: 'Select all shown' }).click();
    await expect.element(screen.getByText('4 selected')).toBeVisible();
    await screen.getByRole('button', { name: 'Edit together…' }).click();
    const dialog = screen.getByRole('dialog');
    await dialog.getByLabelText('Group').fill('North');
    await dialog.getByLabelText('Pin colour').selectOptions('Green');
    await screen.getByRole('button', { name: 'Preview changes' }).click();

    const rows = screen.getByRole('table').getByRole('row');
    await expect.element(rows.nth(1)).toHaveTextContent('AlderPin colour: red → green');
    await expect.element(rows.nth(2)).toHaveTextContent('BirchGroup: “South” → “North”; Pin colour: blue → green');
    await expect.element(rows.nth(4)).toHaveTextContent(/Dogwood.*height is not known/);
    // The unknown height holds the whole batch until that site is left out.
    await expect.element(screen.getByRole('button', { name: /^Queue/ })).toBeDisabled();
    await screen.getByRole('button', { name: 'Leave out 1 site that cannot take it' }).click();
    await expect.element(screen.getByRole('heading', { name: 'Edit 3 sites together' })).toBeVisible();
    await screen.getByRole('button', { name: 'Queue 3 changes' }).click();

    await expect.element(screen.getByText(/Queued 3 changes, one per site/)).toBeVisible();
    const [apply] = host.callsOf('applyBatchEdit');
    expect(apply![0]).toMatchObject({ localIds: ['L1', 'L2', 'L3'], change: { group: 'North', pinStyle: 4 }, revisions: { L1: SITES[0]!.revision, L2: SITES[1]!.revision, L3: SITES[2]!.revision } });
    await expect.poll(() => host.store.getState().sites.get('L2')?.group).toBe('North');
  });

  it('reads a height in feet and says why a height it cannot read is refused, before asking the host', async () => {
    const { screen, host } = await setup();
    await screen.getByRole('button', { name: 'Select all shown' }).click();
    await screen.getByRole('button', { name: 'Edit together…' }).click();
    await screen.getByLabelText('Height (m)').fill('1,200');
    await expect.element(screen.getByText(/could be 1200 or 1.200/)).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Preview changes' })).toBeDisabled();
    await screen.getByLabelText('Height (m)').fill('100 ft');
    // Feet are stored as whole meters: the field says what 100 ft becomes before anything is previewed.
    await expect.element(screen.getByText('= 30 m (98 ft) — converted to whole meters')).toBeVisible();
    await screen.getByLabelText('Height (m)').fill('98 ft');
    await screen.getByRole('button', { name: 'Preview changes' }).click();
    // 98 ft is 30 m, which Alder already has; Birch moves from 40 m.
    await expect.element(screen.getByRole('table').getByRole('row').nth(1)).toHaveTextContent('AlderAlready has these values');
    await expect.element(screen.getByRole('table').getByRole('row').nth(2)).toHaveTextContent('BirchHeight: 40 m (131 ft) → 30 m (98 ft)');
    expect(host.callsOf('previewBatchEdit')[0]![0].change).toEqual({ height: '30' });
  });
});
