// The Position card checks the receiver's port before anything is sent: one outside 1 to 65535 is
// refused in words beside the field and the host is not asked; a good one is saved as a number. The
// accuracy gate is named in meters, the app's spelling.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../electron/shared/contract/index';
import { PositionSettings } from '../../renderer/src/features/location/position-settings';
import { renderWithHost } from './support/shell';

const PORT_PROBLEM = 'The port is a whole number from 1 to 65535 (gpsd’s is 2947).';

describe('the Position card', () => {
  it('refuses a port outside 1 to 65535 beside the field without saving, and saves a good one as a number', async () => {
    const { screen, host } = await renderWithHost({}, () => <PositionSettings />);
    host.answer('saveSettings', async () => ({ ok: true as const, value: { ...DEFAULT_SETTINGS, gpsSource: 'gpsd' as const, gpsPort: 2948 } }));
    await screen.getByRole('radio', { name: /^gpsd/ }).click();

    for (const refused of ['70000', '0', '29.47', 'port']) {
      await screen.getByLabelText('Receiver port').fill(refused);
      await screen.getByRole('button', { name: 'Save position settings' }).click();
      await expect.element(screen.getByText(PORT_PROBLEM)).toBeVisible();
      await expect.element(screen.getByLabelText('Receiver port')).toHaveAttribute('aria-invalid', 'true');
    }
    expect(host.callsOf('saveSettings')).toHaveLength(0);

    await screen.getByLabelText('Receiver port').fill(' 2948 ');
    await screen.getByRole('button', { name: 'Save position settings' }).click();
    await expect.poll(() => host.callsOf('saveSettings').length).toBe(1);
    expect(host.callsOf('saveSettings')[0]![0]).toMatchObject({ gpsSource: 'gpsd', gpsPort: 2948 });
    await expect.element(screen.getByText(PORT_PROBLEM)).not.toBeInTheDocument();
  });

  it('names the accuracy gate in meters, as every other length in the app, and refuses one that is not a number in the same words', async () => {
    const { screen, host } = await renderWithHost({}, () => <PositionSettings />);
    await screen.getByRole('radio', { name: /^gpsd/ }).click();
    await screen.getByLabelText('Accuracy gate (meters)').fill('wide');
    await screen.getByRole('button', { name: 'Save position settings' }).click();
    await expect.element(screen.getByText(/The accuracy gate is a number of meters from/)).toBeVisible();
    expect(host.callsOf('saveSettings')).toHaveLength(0);
  });
});
