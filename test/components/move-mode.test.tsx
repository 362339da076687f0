// Move mode as useMoveWithUndo gives it to the map and the card: one site armed on purpose, Esc or
// Cancel move disarming it, a dropped pin previewed at its new place while the move is confirmed
// (Cancel has the focus, so Enter moves nothing), then queued with an Undo. The map's drag is not
// here: a button drops the pin where the map would report it, and the page shows what the map is told.
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { useUi } from '../../renderer/src/shared/ui/ui-context';
import { useMoveWithUndo } from '../../renderer/src/features/sites/use-move-with-undo';
import { renderWithHost, siteView } from './support/shell';

const RIDGE = siteView({ localId: 'L1', name: 'Ridge', height: 30, latitude: 40.5, longitude: -80.25 });
const NO_HEIGHT = siteView({ localId: 'L2', siteId: '4712', name: 'Unmeasured', height: null, latitude: 40.6, longitude: -80.3 });
const TO = { lat: 40.501, lng: -80.25 };

/** What App and the map do with the hook: a Move button per site, Cancel move, and a pin drop. */
function MoveHarness() {
  const ui = useUi();
  const move = useMoveWithUndo(ui);
  return (
    <div>
      <p>Draggable pin: {move.movableId ?? 'none'}</p>
      <p>{move.preview ? `Pin shown at ${move.preview.lat}, ${move.preview.lng}` : 'Pins where the sites are'}</p>
      <button type="button" onClick={() => move.startMove('L1')}>Move Ridge</button>
      <button type="button" onClick={() => move.startMove('L2')}>Move Unmeasured</button>
      {move.mode.phase === 'armed' && <button type="button" onClick={move.cancelMove}>Cancel move</button>}
      <button type="button" onClick={() => void move.moveSite('L1', TO.lat, TO.lng)}>Drop Ridge's pin</button>
      <button type="button" onClick={() => move.selected('L2')}>Select Unmeasured</button>
    </div>
  );
}

const setup = () => renderWithHost({ sites: [RIDGE, NO_HEIGHT] }, () => <MoveHarness />);
type Shown = Awaited<ReturnType<typeof setup>>;

/** Arms Ridge and drops its pin where the map would report it: the move then asks to be confirmed. */
async function dropRidgeInMoveMode({ screen }: Shown): Promise<void> {
  await screen.getByRole('button', { name: 'Move Ridge' }).click();
  await screen.getByRole('button', { name: "Drop Ridge's pin" }).click();
}

/** The pins stand where the sites are, and no save was asked of the host. */
async function expectNothingMoved({ screen, host }: Shown): Promise<void> {
  await expect.element(screen.getByText('Pins where the sites are')).toBeVisible();
  expect(host.callsOf('saveSite')).toEqual([]);
}

describe('move mode', () => {
  it('lets no pin be dragged until Move is chosen, then only that one', async () => {
    const { screen } = await setup();
    await expect.element(screen.getByText('Draggable pin: none')).toBeVisible();
    await screen.getByRole('button', { name: 'Move Ridge' }).click();
    await expect.element(screen.getByText('Draggable pin: L1')).toBeVisible();
  });

  it('refuses to arm a site without a height, and says how to fix it', async () => {
    const { screen } = await setup();
    await screen.getByRole('button', { name: 'Move Unmeasured' }).click();
    await expect.element(screen.getByText('This site has no height yet; open it and set one before moving it.')).toBeVisible();
    await expect.element(screen.getByText('Draggable pin: none')).toBeVisible();
  });

  it('is left with Esc, with Cancel move, or by selecting another site', async () => {
    const { screen } = await setup();
    await screen.getByRole('button', { name: 'Move Ridge' }).click();
    await userEvent.keyboard('{Escape}');
    await expect.element(screen.getByText('Draggable pin: none')).toBeVisible();
    await screen.getByRole('button', { name: 'Move Ridge' }).click();
    await screen.getByRole('button', { name: 'Cancel move' }).click();
    await expect.element(screen.getByText('Draggable pin: none')).toBeVisible();
    await screen.getByRole('button', { name: 'Move Ridge' }).click();
    await screen.getByRole('button', { name: 'Select Unmeasured' }).click();
    await expect.element(screen.getByText('Draggable pin: none')).toBeVisible();
  });

  it('moves nothing when a pin is dropped outside move mode', async () => {
    const shown = await setup();
    await shown.screen.getByRole('button', { name: "Drop Ridge's pin" }).click();
    await expect.element(shown.screen.getByRole('dialog')).not.toBeInTheDocument();
    await expectNothingMoved(shown);
  });

  it('previews the dropped pin while asking, with Cancel focused so Enter moves nothing', async () => {
    const shown = await setup();
    const { screen } = shown;
    await dropRidgeInMoveMode(shown);
    const dialog = screen.getByRole('dialog', { name: 'Move Ridge?' });
    await expect.element(dialog.getByText(/From 40\.5(0*), -80\.25(0*)\s*to 40\.501(0*), -80\.25(0*)/)).toBeVisible();
    await expect.element(dialog.getByText(/That is 111 m\./)).toBeVisible();
    await expect.element(screen.getByText(`Pin shown at ${TO.lat}, ${TO.lng}`)).toBeInTheDocument();
    // No pin is draggable while the move waits for its answer.
    await expect.element(screen.getByText('Draggable pin: none')).toBeInTheDocument();
    await expect.element(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.element(dialog).not.toBeInTheDocument();
    await expectNothingMoved(shown);
  });

  it('queues the move once confirmed, and Undo queues the way back', async () => {
    const shown = await setup();
    const { screen, host } = shown;
    await dropRidgeInMoveMode(shown);
    await screen.getByRole('dialog', { name: 'Move Ridge?' }).getByRole('button', { name: 'Move site' }).click();
    await expect.element(screen.getByText('Moved Ridge.')).toBeVisible();
    await expect.element(screen.getByText('Pins where the sites are')).toBeVisible();
    expect(host.callsOf('saveSite')).toMatchObject([[{ localId: 'L1', latitude: TO.lat, longitude: TO.lng }]]);
    expect(host.store.getState().sites.get('L1')).toMatchObject({ latitude: TO.lat, syncState: 'pending' });

    await screen.getByRole('button', { name: 'Undo' }).click();
    await expect.element(screen.getByText('Ridge is back where it was.')).toBeVisible();
    expect(host.callsOf('saveSite')[1]).toMatchObject([{ localId: 'L1', latitude: RIDGE.latitude, longitude: RIDGE.longitude }]);
    expect(host.store.getState().sites.get('L1')).toMatchObject({ latitude: RIDGE.latitude });
  });

  it('says so when the host refuses the move, and leaves the site where it was', async () => {
    const shown = await setup();
    const { screen, host } = shown;
    host.answer('saveSite', async () => ({ ok: false as const, issues: [{ field: 'latitude', message: 'Latitude is off the service\'s grid.' }] }));
    await dropRidgeInMoveMode(shown);
    await screen.getByRole('dialog', { name: 'Move Ridge?' }).getByRole('button', { name: 'Move site' }).click();
    await expect.element(screen.getByText(/^The site was not moved: .*off the service's grid/)).toBeVisible();
    await expect.element(screen.getByText('Pins where the sites are')).toBeVisible();
    expect(host.store.getState().sites.get('L1')).toMatchObject({ latitude: RIDGE.latitude, syncState: 'synced' });
  });
});
