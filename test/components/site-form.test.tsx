// The site form's rules as a user meets them: what each field says and when, the height in meters or
// feet (the toggle converts what is shown), coordinates typed, in DMS or pasted as a pair, what must
// be filled before anything is queued, and the save button while the host answers.
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import type { SiteView } from '../../electron/shared/contract/index';
import { SiteForm } from '../../renderer/src/features/sites/site-form';
import type { SiteFormRequest } from '../../renderer/src/features/sites/site-form-rules';
import { renderWithHost, Shell, siteView } from './support/shell';

const RIDGE = siteView({ localId: 'L1', siteId: '4711', name: 'Ridge', height: 45, latitude: 40.5, longitude: -80.25 });

async function openForm(request: SiteFormRequest, sites: SiteView[] = [RIDGE]) {
  const closed: Array<SiteView | null> = [];
  const rendered = await renderWithHost({ sites }, () => <SiteForm request={request} onClose={(saved) => closed.push(saved)} onPickOnMap={() => undefined} picked={null} />);
  const { screen } = rendered;
  const field = (name: string | RegExp) => screen.getByRole('textbox', { name });
  return { ...rendered, closed, field, save: screen.getByRole('button', { name: /^(Save site|Add site|Saving…)$/ }) };
}

const NEW: SiteFormRequest = { mode: 'new', lat: null, lng: null };

describe('the site form', () => {
  it('queues nothing until the height and both coordinates of a new site are given, and says which fields need fixing', async () => {
    const { screen, host, field, save, closed } = await openForm(NEW);
    await field('Name').fill('North Ridge');
    await save.click();
    await expect.element(screen.getByText('3 fields need fixing before the site can be saved. Nothing was queued.')).toBeVisible();
    await expect.element(screen.getByText(/Height is required/)).toBeVisible();
    await expect.element(screen.getByText(/A new site needs a latitude/)).toBeVisible();
    await expect.element(screen.getByText(/A new site needs a longitude/)).toBeVisible();
    // The first field with a problem gets the keyboard, marked invalid.
    await expect.element(field('Height (meters)')).toHaveFocus();
    await expect.element(field('Height (meters)')).toHaveAttribute('aria-invalid', 'true');
    expect(host.callsOf('saveSite')).toEqual([]);
    expect(closed).toEqual([]);

    await field('Height (meters)').fill('30');
    await field('Latitude').fill('45.5');
    await field('Longitude').fill('-93.25');
    await expect.element(screen.getByText(/fields? needs? fixing/)).not.toBeInTheDocument();
    await save.click();
    await expect.poll(() => closed.length).toBe(1);
    expect(host.callsOf('saveSite')).toMatchObject([[{ name: 'North Ridge', height: 30, latitude: 45.5, longitude: -93.25 }]]);
    await expect.element(screen.getByText('Saved North Ridge — sending to the service.')).toBeVisible();
  });

  it('says what is wrong with a height once the field is left, not while it is typed', async () => {
    const { screen, field } = await openForm(NEW);
    await field('Height (meters)').fill('-5');
    await expect.element(screen.getByText(/Height cannot be negative/)).not.toBeInTheDocument();
    await field('Name').click();
    await expect.element(screen.getByText(/Height cannot be negative/)).toBeVisible();
    await field('Height (meters)').fill('30.6 m');
    await expect.element(screen.getByText(/^= 31 m .*30\.6 m rounded to whole meters$/)).toBeVisible();
    // A bare number is in the unit the toggle shows: the same height, rounded the same way, said the same.
    await field('Height (meters)').fill('30.6');
    await expect.element(screen.getByText('= 31 m (102 ft) — 30.6 m rounded to whole meters')).toBeVisible();
    await expect.element(field('Height (meters)')).not.toHaveAttribute('aria-invalid', 'true');
    await field('Height (meters)').fill('98 ft');
    await expect.element(screen.getByText(/^= 30 m .*converted to whole meters$/)).toBeVisible();
    await field('Height (meters)').fill('tall');
    await expect.element(screen.getByText('Whole meters, or feet like “98 ft”.')).not.toBeInTheDocument();
    await expect.element(field('Height (meters)')).toHaveAttribute('aria-invalid', 'true');
  });

  it('converts the height shown when the unit is switched, and saves whole meters', async () => {
    const { screen, host, field, save, closed } = await openForm({ mode: 'edit', localId: 'L1' });
    await expect.element(screen.getByRole('heading', { name: 'Edit Ridge' })).toBeVisible();
    await expect.element(field('Height (meters)')).toHaveValue('45');
    await field('Height (meters)').fill('30');
    await screen.getByRole('radio', { name: 'ft' }).click();
    await expect.element(field('Height (feet)')).toHaveValue('98.4');
    await expect.element(screen.getByText('= 30 m (98 ft) — converted to whole meters')).toBeVisible();
    await field('Height (feet)').fill('100');
    await screen.getByRole('radio', { name: 'm', exact: true }).click();
    await expect.element(field('Height (meters)')).toHaveValue('30');
    await screen.getByRole('radio', { name: 'ft' }).click();
    await save.click();
    await expect.poll(() => closed.length).toBe(1);
    expect(host.callsOf('saveSite')).toMatchObject([[{ localId: 'L1', height: 30 }]]);
  });

  it('refuses a latitude beyond the poles and reads degrees, minutes and seconds into decimals', async () => {
    const { screen, field } = await openForm(NEW);
    await field('Latitude').fill('95');
    await field('Longitude').click();
    await expect.element(screen.getByText(/Latitude .*90/)).toBeVisible();
    await expect.element(field('Latitude')).toHaveAttribute('aria-invalid', 'true');
    await field('Latitude').fill('40°26\'46"N');
    await field('Longitude').click();
    await expect.element(field('Latitude')).toHaveValue('40.446111');
    await expect.element(field('Latitude')).toHaveAttribute('aria-invalid', 'false');
  });

  it('fills both coordinates from a pair pasted into Latitude', async () => {
    const { field } = await openForm(NEW);
    await field('Latitude').click();
    const clipboard = new DataTransfer();
    clipboard.setData('text/plain', '40°26\'46"N 79°58\'56"W');
    (field('Latitude').element() as HTMLInputElement).dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
    await expect.element(field('Latitude')).toHaveValue('40.446111');
    await expect.element(field('Longitude')).toHaveValue('-79.982222');
  });

  it('holds the save button while the host answers, then closes with what it queued', async () => {
    const { host, field, save, closed } = await openForm(NEW);
    await field('Name').fill('Mast');
    await field('Height (meters)').fill('12');
    await field('Latitude').fill('45');
    await field('Longitude').fill('-93');
    const answer = host.hold('saveSite');
    await save.click();
    await expect.element(save).toHaveTextContent('Saving…');
    await expect.element(save).toBeDisabled();
    expect(closed).toEqual([]);
    answer.release();
    await expect.poll(() => closed.length).toBe(1);
    expect(closed[0]).toMatchObject({ name: 'Mast', height: 12, syncState: 'pending' });
  });

  it('shows what the host refused under its field, keeps the form open and lets the user fix it', async () => {
    const { screen, host, field, save, closed } = await openForm(NEW);
    host.answer('saveSite', async () => ({ ok: false as const, issues: [{ field: 'height', message: 'The service allows at most 300 m for this account.' }] }));
    await field('Height (meters)').fill('290');
    await field('Latitude').fill('45');
    await field('Longitude').fill('-93');
    await save.click();
    await expect.element(screen.getByText('The service allows at most 300 m for this account.')).toBeVisible();
    await expect.element(field('Height (meters)')).toHaveFocus();
    await expect.element(save).toBeEnabled();
    expect(closed).toEqual([]);
    // Changing the field takes the host's word back: it spoke of the old value.
    await field('Height (meters)').fill('250');
    await expect.element(screen.getByText('The service allows at most 300 m for this account.')).not.toBeInTheDocument();
  });

  it('asks for the site ID of a site added by its ID, and needs no height or position', async () => {
    const { screen, host, field, save, closed } = await openForm({ mode: 'existing' });
    await expect.element(field('Site ID')).toHaveFocus();
    await save.click();
    await expect.element(screen.getByText(/Site ID is required/)).toBeVisible();
    expect(host.callsOf('addExistingSite')).toEqual([]);
    await field('Site ID').fill('5150');
    await save.click();
    await expect.poll(() => closed.length).toBe(1);
    expect(host.callsOf('addExistingSite')).toMatchObject([[{ siteId: '5150' }]]);
    expect(host.callsOf('saveSite')).toEqual([]);
  });

  it('keeps what was typed as a draft when closed, and offers it again when the form reopens', async () => {
    const first = await openForm(NEW);
    await first.field('Name').fill('Half typed');
    await first.screen.getByRole('button', { name: 'Close', exact: true }).click();
    expect(first.closed).toEqual([null]);
    await expect.element(first.screen.getByText(/kept as a draft/)).toBeVisible();
    const draftKey = Object.keys(localStorage).find((key) => localStorage.getItem(key)?.includes('Half typed'));
    expect(draftKey).toBeDefined();
    await first.screen.unmount();
    // The draft is found by its key, as the Sites panel reopens it.
    const draft = JSON.parse(localStorage.getItem(draftKey!)!) as { key: string };
    const closed: Array<SiteView | null> = [];
    const again = await render(
      <Shell host={first.host} navigation={[]}>
        <SiteForm request={{ mode: 'new', lat: null, lng: null, draftKey: draft.key }} onClose={(saved) => closed.push(saved)} onPickOnMap={() => undefined} picked={null} />
      </Shell>,
    );
    await expect.element(again.getByRole('textbox', { name: 'Name' })).toHaveValue('Half typed');
    await expect.element(again.getByText(/Restored your unsaved changes/)).toBeVisible();
    await userEvent.keyboard('{Escape}');
    expect(closed).toEqual([null]);
  });

  it('keeps no draft and says none is kept when what was typed is put back as it was', async () => {
    localStorage.removeItem('sitewalk.draft.site:L1');
    const { screen, field, closed } = await openForm({ mode: 'edit', localId: 'L1' });
    await field('Name').fill('Ridge North');
    await field('Height (meters)').fill('30');
    await screen.getByRole('radio', { name: 'ft' }).click();
    await expect.element(field('Height (feet)')).toHaveValue('98.4');
    await field('Height (feet)').fill('147.6');
    await screen.getByRole('radio', { name: 'm', exact: true }).click();
    await expect.element(field('Height (meters)')).toHaveValue('45');
    await field('Name').fill('Ridge');
    // While the form is open the typing is kept, as any typing is.
    expect(localStorage.getItem('sitewalk.draft.site:L1')).not.toBeNull();
    await screen.getByRole('button', { name: 'Close', exact: true }).click();
    expect(closed).toEqual([null]);
    expect(localStorage.getItem('sitewalk.draft.site:L1')).toBeNull();
    expect(screen.getByText(/kept as a draft/).elements()).toEqual([]);
  });
});
