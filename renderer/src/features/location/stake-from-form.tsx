// The site form's way into staking: "Stake here" for a new site, "Move site to my position" for an
// existing one (with where it is now, so the panel shows the distance). My location does the rest.
import type { SiteView } from '../../../../electron/shared/contract/index';

export function StakeFromForm({ site, onStakeHere }: { site: SiteView | null; onStakeHere: (target: { lat: number; lon: number } | null) => void }) {
  const target = site && site.latitude !== null && site.longitude !== null ? { lat: site.latitude, lon: site.longitude } : null;
  return (
    <>
      {' '}
      <button type="button" className="link-button" onClick={() => onStakeHere(target)}>
        {site ? 'Move site to my position' : 'Stake here'}
      </button>
    </>
  );
}
