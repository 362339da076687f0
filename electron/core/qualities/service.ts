// Rendering qualities: the service's list, cached per profile for offline use. A refresh asks the
// service (one API call) and falls back to the cache, saying why, when it cannot answer.
import { describeError } from '../../shared/result';
import type { ServiceAccess } from '../access/service-access';
import type { Clock } from '../clock';
import { problemOf } from '../outbox/policy';
import type { Problem } from '../outbox/types';
import type { RenderingQualitiesView } from '../sitewalk-core';
import type { QualitiesCache } from './cache';

export class QualitiesService {
  constructor(
    private readonly cache: QualitiesCache,
    private readonly access: ServiceAccess,
    private readonly clock: Clock,
  ) {}

  async list(profileId: string, options: { refresh?: boolean } = {}): Promise<RenderingQualitiesView> {
    const cached = await this.cache.get(profileId);
    if (!options.refresh && cached) return { items: cached.items, fetchedAt: cached.fetchedAt, fromCache: true, problem: null };
    let problem: Problem;
    try {
      const client = await this.access.clientFor(profileId);
      const result = await client.listRenderingQualities();
      if (result.ok) {
        const fetchedAt = new Date(this.clock.now()).toISOString();
        await this.cache.put(profileId, { items: result.value, fetchedAt });
        return { items: result.value, fetchedAt, fromCache: false, problem: null };
      }
      problem = this.access.scrub(problemOf(result.error), profileId);
    } catch (error) {
      problem = {
        kind: 'network',
        message: `The service could not be asked: ${describeError(error)}`,
        detail: describeError(error),
        retryable: true,
        quotaExhausted: false,
        authRejected: false,
        mayHaveBeenApplied: false,
      };
    }
    return { items: cached?.items ?? [], fetchedAt: cached?.fetchedAt ?? null, fromCache: cached !== null, problem };
  }
}
