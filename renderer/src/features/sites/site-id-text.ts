// What the site card says in place of a service site ID it does not have: never "Not on the service
// yet" for a create the service may well have made (an answer lost, or an answer without the ID).
import type { SiteView } from '../../../../electron/shared/contract/index';

export function siteIdText(site: Pick<SiteView, 'siteId' | 'syncState' | 'lastError'>): string {
  if (site.siteId) return site.siteId;
  if (site.lastError?.kind === 'no-site-id') return 'Not known: the service created the site but did not say its ID (enter it in the Outbox)';
  switch (site.syncState) {
    case 'needs-review':
      return 'Not known yet: the service may have created the site (check it in the Outbox)';
    case 'pending':
      return 'None yet: the new site is waiting to be sent';
    case 'failed':
      return 'None: the service refused the new site (see the Outbox)';
    default:
      return 'Not on the service';
  }
}
