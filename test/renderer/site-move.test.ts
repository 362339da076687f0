// Moving a site by dragging its pin: the move must be an edit of the position only (with the height
// the service requires), land where it was dropped at the precision that is sent, and never start
// for a site that cannot be sent without a height.
import { describe, expect, it } from 'vitest';
import type { SiteView } from '../../electron/shared/contract/index';
import { moveInput, planMove } from '../../renderer/src/features/sites/site-move';
import { siteView } from './site-view';

function site(patch: Partial<SiteView> = {}): SiteView {
  return siteView({ localId: 'L7', height: 45, ...patch });
}

describe('moving a site by its pin', () => {
  it('moves from where the site is to the drop, rounded to the 7 decimals that are sent', () => {
    expect(planMove(site(), { lat: 40.123456789, lng: -80.987654321 })).toEqual({ ok: true, from: { lat: 40.5, lng: -80.25 }, to: { lat: 40.1234568, lng: -80.9876543 } });
  });

  it('refuses to move a site without a height, and says how to fix it', () => {
    expect(planMove(site({ height: null }), { lat: 40, lng: -80 })).toEqual({ ok: false, message: 'This site has no height yet; open it and set one before moving it.' });
  });

  it('does nothing, quietly, for a site that has gone or has no position', () => {
    expect(planMove(undefined, { lat: 40, lng: -80 })).toEqual({ ok: false, message: null });
    expect(planMove(site({ latitude: null }), { lat: 40, lng: -80 })).toEqual({ ok: false, message: null });
  });

  it('sends only the position, with the height and the service ID, so the move is an edit', () => {
    expect(moveInput(site(), { lat: 40.1, lng: -80.9 })).toEqual({ localId: 'L7', siteId: '4711', height: 45, latitude: 40.1, longitude: -80.9 });
  });

  it('moves a site the service does not have yet by its local ID alone', () => {
    expect(moveInput(site({ siteId: null }), { lat: 40.1, lng: -80.9 })).toEqual({ localId: 'L7', height: 45, latitude: 40.1, longitude: -80.9 });
  });
});
