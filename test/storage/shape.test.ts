// The hand-written fast path of loading (storage/shape.ts) must never take what the schema would
// refuse, nor give anything but what the schema returns: generated records, good and mangled, are
// checked by both, and every record the fast path takes must come back from the schema unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRegisterRecord, registerRecordSchema } from '../../electron/core/sites/register';
import { isCommonOutboxRecord, outboxRecordSchema } from '../../electron/core/outbox/types';

const text = fc.oneof(fc.string(), fc.constantFrom('', 'Tower 1', 'p-1'));
const num = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -1, 1.5, 2 ** 53));
const scalar = fc.oneof(text, num, fc.boolean(), fc.constant(null));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const fields = fc.record({ name: maybe(text), height: maybe(num), latitude: maybe(num), longitude: maybe(num), description: maybe(text), group: maybe(text), pinStyle: maybe(fc.integer({ min: -1, max: 8 })) }, { requiredKeys: [] });
const siteRecord = fc.record({
  localId: text,
  profileId: text,
  siteId: fc.option(text, { nil: null }),
  origin: fc.constantFrom('created', 'existing', 'imported', 'other'),
  known: fields,
  appliedSeq: num,
  createdAt: num,
  updatedAt: num,
  lost: maybe(text),
  draft: maybe(fields),
}, { requiredKeys: ['localId', 'profileId', 'siteId', 'origin', 'known', 'appliedSeq', 'createdAt', 'updatedAt'] });
const registerRecord = fc.oneof(fc.record({ t: fc.constant('put'), site: siteRecord }), fc.record({ t: fc.constantFrom('del', 'put'), localId: text }));

const problem = fc.record({ kind: text, message: text, detail: text, retryable: fc.boolean(), quotaExhausted: fc.boolean(), authRejected: fc.boolean(), mayHaveBeenApplied: fc.boolean(), issues: maybe(fc.array(fc.record({ field: text, message: text }))), repeats: maybe(num) }, { requiredKeys: ['kind', 'message', 'detail', 'retryable', 'quotaExhausted', 'authRejected', 'mayHaveBeenApplied'] });
const edit = fc.record({ siteId: maybe(text), name: maybe(text), height: num, latitude: maybe(num), longitude: maybe(num), description: maybe(text), group: maybe(text), pinStyle: maybe(fc.integer({ min: 0, max: 8 })) }, { requiredKeys: ['height'] });
const reprocess = fc.record({ processId: text, multiMapId: text, sendEmail: fc.boolean() });
const carried = fc.record({ binding: fc.constantFrom('soap11', 'soap12', 'http-get', 'http-post', 'x'), instead: fc.constantFrom('soap11', 'http-get'), reason: fc.constantFrom('request-validation', 'query-length'), message: text });
const base = {
  id: text,
  seq: num,
  profileId: text,
  state: fc.constantFrom('pending', 'sending', 'done', 'failed', 'needs-review', 'paused', 'gone'),
  attempts: num,
  createdAt: num,
  updatedAt: num,
  nextAttemptAt: fc.option(num, { nil: null }),
  result: fc.option(text, { nil: null }),
  problem: fc.option(problem, { nil: null }),
  carriedBy: maybe(fc.option(carried, { nil: null })),
};
const baseKeys = ['id', 'seq', 'profileId', 'state', 'attempts', 'createdAt', 'updatedAt', 'nextAttemptAt', 'result', 'problem'] as const;
const siteEntry = fc.record({ ...base, kind: fc.constant('site'), localId: text, op: fc.constantFrom('create', 'edit', 'x'), payload: fc.oneof(edit, reprocess), resultSiteId: fc.option(text, { nil: null }) }, { requiredKeys: [...baseKeys, 'kind' as const, 'localId' as const, 'op' as const, 'payload' as const, 'resultSiteId' as const] });
const reprocessEntry = fc.record({ ...base, kind: fc.constantFrom('reprocess', 'site'), payload: fc.oneof(reprocess, edit) }, { requiredKeys: [...baseKeys, 'kind' as const, 'payload' as const] });
const patch = fc.record({ ...base, localId: text, op: fc.constantFrom('create', 'edit'), payload: fc.oneof(edit, reprocess), resultSiteId: fc.option(text, { nil: null }), kind: fc.constant('site') }, { requiredKeys: [] });
const outboxRecord = fc.oneof(fc.record({ t: fc.constant('add'), entry: fc.oneof(siteEntry, reprocessEntry) }), fc.record({ t: fc.constantFrom('set', 'add'), id: text, patch }));

/** The record, sometimes with one more key somewhere (the schema strips it: the fast path must refuse). */
const withStray = (arb: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(arb, fc.boolean(), scalar).map(([record, stray, value]) => {
    const copy = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
    if (stray) {
      const inner = (Object.values(copy).find((v) => typeof v === 'object' && v !== null && !Array.isArray(v)) ?? copy) as Record<string, unknown>;
      inner.stray = value;
    }
    return copy;
  });

function agree(fast: (value: unknown) => boolean, schema: { safeParse: (value: unknown) => { success: boolean; data?: unknown } }, record: unknown) {
  if (!fast(record)) return;
  const parsed = schema.safeParse(record);
  expect(parsed.success).toBe(true);
  expect(parsed.data).toEqual(record);
}

describe('the fast path of loading', () => {
  it('takes only register records the schema takes, exactly as the schema returns them', () => {
    let taken = 0;
    fc.assert(fc.property(withStray(registerRecord as fc.Arbitrary<Record<string, unknown>>), (record) => {
      if (isRegisterRecord(record)) taken++;
      agree(isRegisterRecord, registerRecordSchema, record);
    }), { numRuns: 3000 });
    expect(taken).toBeGreaterThan(0);
  });

  it('takes only outbox records the schema takes, exactly as the schema returns them', () => {
    let taken = 0;
    fc.assert(fc.property(withStray(outboxRecord as fc.Arbitrary<Record<string, unknown>>), (record) => {
      if (isCommonOutboxRecord(record)) taken++;
      agree(isCommonOutboxRecord, outboxRecordSchema, record);
    }), { numRuns: 3000 });
    expect(taken).toBeGreaterThan(0);
  });

  it('leaves to the schema what it does not know: other keys, infinite numbers, unknown states', () => {
    const site = { localId: 'l1', profileId: 'p', siteId: null, origin: 'created', known: { name: 'A' }, appliedSeq: 0, createdAt: 1, updatedAt: 1 };
    expect(isRegisterRecord({ t: 'put', site })).toBe(true);
    expect(isRegisterRecord({ t: 'put', site: { ...site, extra: 1 } })).toBe(false);
    expect(isRegisterRecord({ t: 'put', site: { ...site, known: { height: Infinity } } })).toBe(false);
    expect(isRegisterRecord({ t: 'put', site: { ...site, appliedSeq: 1.5 } })).toBe(false);
    expect(isRegisterRecord(JSON.parse('{"t":"put","site":{"__proto__":{}}}'))).toBe(false);
    expect(isCommonOutboxRecord({ t: 'set', id: 'o1', patch: { state: 'gone' } })).toBe(false);
    expect(isCommonOutboxRecord({ t: 'set', id: 'o1', patch: { seq: 3 } })).toBe(false);
    expect(isCommonOutboxRecord({ t: 'set', id: 'o1', patch: { state: 'done', updatedAt: 5 } })).toBe(true);
  });
});
