// A profile card's "Use this profile": shown only on the profiles not in use; the host's yes is said
// in a toast and the lists are read again for the new profile, its refusal is said and nothing else.
import { describe, expect, it } from 'vitest';
import type { ProfileView } from '../../electron/shared/contract/index';
import { SettingsPanel } from '../../renderer/src/features/settings/settings-panel';
import { PROFILE, renderWithHost } from './support/shell';

const OFFICE: ProfileView = { ...PROFILE, id: 'o', name: 'Office', active: false };

describe('Use this profile', () => {
  it('is offered on the profile not in use, and puts it in use with a word and a fresh read of its data', async () => {
    const { screen, host } = await renderWithHost({ profiles: [PROFILE, OFFICE] }, () => <SettingsPanel />);
    host.answer('useProfile', async (profileId) => ({ ok: true as const, value: { ...OFFICE, id: profileId, active: true } }));
    await expect.element(screen.getByRole('button', { name: 'Use this profile' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Use this profile' }).elements()).toHaveLength(1);
    const readsBefore = host.callsOf('listSites').length;

    await screen.getByRole('button', { name: 'Use this profile' }).click();
    await expect.element(screen.getByText('Now using Office.')).toBeVisible();
    expect(host.callsOf('useProfile')).toEqual([['o']]);
    await expect.poll(() => host.callsOf('listSites').length).toBeGreaterThan(readsBefore);
  });

  it('says why when the host refuses, and says nothing of using it', async () => {
    const { screen, host } = await renderWithHost({ profiles: [PROFILE, OFFICE] }, () => <SettingsPanel />);
    host.answer('useProfile', async () => ({ ok: false as const, issues: [{ field: 'profileId', message: 'That profile was deleted in another window.' }] }));
    const readsBefore = host.callsOf('listSites').length;

    await screen.getByRole('button', { name: 'Use this profile' }).click();
    await expect.element(screen.getByText(/That profile was deleted in another window\./)).toBeVisible();
    await expect.element(screen.getByText('Now using Office.')).not.toBeInTheDocument();
    expect(host.callsOf('listSites').length).toBe(readsBefore);
  });
});
