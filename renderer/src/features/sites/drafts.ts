// Unsaved form input, kept in localStorage on every keystroke so a crash, a reload, a closed form or
// a flat battery never loses what a technician typed. A draft lives until its form is saved or the
// user discards it. Keys are per site (existing sites) or per new-site form (each gets its own id).
import { HEIGHT_UNITS, type HeightUnit } from '../../../../electron/shared/domain';

export interface SiteDraftFields {
  name: string;
  height: string;
  heightUnit: HeightUnit;
  latitude: string;
  longitude: string;
  description: string;
  group: string;
  pinStyle: string;
  siteId: string;
}

export interface SiteDraft {
  /** `site:<localId>` for an existing site, `new:<random>` for a new one, `existing:<random>` for add-by-ID. */
  key: string;
  /** The site being edited, when it is one. */
  localId: string | null;
  mode: 'new' | 'edit' | 'existing';
  fields: SiteDraftFields;
  savedAt: string;
}

const PREFIX = 'sitewalk.draft.';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be switched off by policy; the form still works, just without drafts.
    return null;
  }
}

export function saveDraft(draft: SiteDraft): void {
  try {
    storage()?.setItem(PREFIX + draft.key, JSON.stringify(draft));
  } catch {
    // Quota exceeded or storage disabled: nothing better to do than keep the form open.
  }
}

export function loadDraft(key: string): SiteDraft | null {
  const raw = storage()?.getItem(PREFIX + key);
  return raw ? parseDraft(raw) : null;
}

export function deleteDraft(key: string): void {
  storage()?.removeItem(PREFIX + key);
}

/** Every stored draft, newest first. */
export function listDrafts(): SiteDraft[] {
  const store = storage();
  if (!store) return [];
  const drafts: SiteDraft[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    const draft = parseDraft(store.getItem(key) ?? '');
    if (draft) drafts.push(draft);
  }
  return drafts.sort((a, b) => b.savedAt.localeCompare(a.savedAt));
}

function parseDraft(raw: string): SiteDraft | null {
  try {
    const value = JSON.parse(raw) as Partial<SiteDraft>;
    if (typeof value?.key !== 'string' || typeof value.fields !== 'object' || value.fields === null) return null;
    if (value.mode !== 'new' && value.mode !== 'edit' && value.mode !== 'existing') return null;
    const f = value.fields as Partial<SiteDraftFields>;
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    return {
      key: value.key,
      localId: typeof value.localId === 'string' ? value.localId : null,
      mode: value.mode,
      savedAt: typeof value.savedAt === 'string' ? value.savedAt : new Date(0).toISOString(),
      fields: {
        name: str(f.name),
        height: str(f.height),
        heightUnit: HEIGHT_UNITS.find((unit) => unit === f.heightUnit) ?? 'm',
        latitude: str(f.latitude),
        longitude: str(f.longitude),
        description: str(f.description),
        group: str(f.group),
        pinStyle: str(f.pinStyle),
        siteId: str(f.siteId),
      },
    };
  } catch {
    return null;
  }
}

/** A fresh key for a new-site or add-by-ID form. */
export function newDraftKey(mode: 'new' | 'existing'): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `${mode}:${random}`;
}
