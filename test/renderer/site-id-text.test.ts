// The site card's "Site ID" for a site without one says what is known: a create the service may have
// made is never "Not on the service".
import { describe, expect, it } from 'vitest';
import { siteIdText } from '../../renderer/src/features/sites/site-id-text';

const problem = (kind: string) => ({ kind, message: '', detail: '', mayHaveBeenApplied: true });

describe('the site card without a service site ID', () => {
  it('says the service may have created a site whose create needs review', () => {
    const text = siteIdText({ siteId: null, syncState: 'needs-review', lastError: problem('network') });
    expect(text).toMatch(/may have created/);
    expect(text).not.toMatch(/Not on the service/);
  });

  it('says the service created it when it answered without the ID', () => {
    expect(siteIdText({ siteId: null, syncState: 'needs-review', lastError: problem('no-site-id') })).toMatch(/created the site but did not say its ID/);
  });

  it('says what is true of a waiting, a refused and a known site', () => {
    expect(siteIdText({ siteId: null, syncState: 'pending', lastError: null })).toMatch(/waiting to be sent/);
    expect(siteIdText({ siteId: null, syncState: 'failed', lastError: problem('fault') })).toMatch(/refused/);
    expect(siteIdText({ siteId: '100004', syncState: 'synced', lastError: null })).toBe('100004');
  });
});
