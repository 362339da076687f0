// The bulk run's view of the real core (electron/core/app.ts): batches go through sites.saveMany
// and reprocessMany (one durable write each, all or nothing), entries are read from the outbox,
// cancel uses the outbox's discard, and "blocked" is the sync status's own reason. Main process and
// CLI only; the renderer asks the host instead.
import type { SitewalkCore } from '../sitewalk-core';
import type { OutboxPort } from './apply';
import type { ExportSite } from '../../shared/bulk/export';
import type { KnownSite } from '../../shared/bulk/preview';

export function coreOutboxPort(core: SitewalkCore): OutboxPort {
  return {
    async enqueueSites(edits) {
      const outcome = await core.sites.saveMany(edits.map((edit) => ({ ...edit })));
      if (!outcome.ok) return { ok: false, issues: outcome.issues };
      return {
        ok: true,
        entries: outcome.value.map((saved) => ({ entryId: saved.entry.id, localId: saved.site.localId, coalesced: saved.coalesced })),
      };
    },
    async enqueueReprocesses(requests, emailAgain) {
      // The core's 24-hour guard stays on: only the submissions a person chose to email again pass it.
      const outcome = await core.reprocessMany(
        requests.map((request) => ({ ...request })),
        { emailAgain },
      );
      if (!outcome.ok) return { ok: false, issues: outcome.issues };
      return { ok: true, entries: outcome.value.map((entry) => ({ entryId: entry.id })) };
    },
    entry(entryId) {
      return core.outbox.standing(entryId);
    },
    async discard(entryId) {
      const outcome = await core.outbox.discard(entryId);
      return outcome.ok;
    },
    subscribe(listener) {
      const off = [
        core.on('outbox', (entry) => listener(entry.id)),
        core.on('outbox-removed', ({ entryId }) => listener(entryId)),
        core.on('status', () => listener(null)),
      ];
      return () => {
        for (const unsubscribe of off) unsubscribe();
      };
    },
    requestSync() {
      void core.sync.syncNow();
    },
    blockedReason() {
      const status = core.sync.status();
      return status.blocked?.message ?? status.paused?.message ?? null;
    },
  };
}

/** The register's sites that have a service ID, for the preview's "unchanged" check. */
export function knownSitesOf(core: SitewalkCore): KnownSite[] {
  return exportSitesOf(core).filter((site): site is KnownSite => site.siteId !== null);
}

/** Every site of the active profile as exported, or only those of `localIds`. */
export function exportSitesOf(core: SitewalkCore, localIds?: readonly string[]): ExportSite[] {
  const only = localIds ? new Set(localIds) : null;
  return core.sites
    .list()
    .filter((site) => only === null || only.has(site.localId))
    .map(({ siteId, name, height, latitude, longitude, description, group, pinStyle, measurement }) => ({
      siteId,
      name,
      height,
      latitude,
      longitude,
      description,
      group,
      pinStyle,
      measurement,
    }));
}
