// The settings as the core keeps them: one schema checks a patch before anything is written and reads
// each stored value back, so a hand-edited or outdated store reads as the defaults, value by value.
import { describe, expect, it } from 'vitest';
import { Settings } from '../../electron/core/settings';
import { memoryStoreFactory } from '../../electron/core/profiles/kv';
import { DEFAULT_SETTINGS, type SettingsView } from '../../electron/shared/contract/index';

describe('settings', () => {
  it('read a stored value that is no longer valid as its default, keeping the valid ones', () => {
    const store = memoryStoreFactory()('settings');
    store.set('tileUrl', 'https://tiles.{s}.example.net/{z}/{x}/{y}.png');
    store.set('tileAttribution', '<b>bold</b>');
    store.set('syncConcurrency', 99);
    store.set('theme', 'dark');
    store.set('gpsHost', 'http://gps.local');
    store.set('gpsPort', 10110);
    store.set('gpsGates', { field: 3, broken: 'far', huge: 1e9 });
    store.set('welcomed', 'yes');
    expect(new Settings(store).now()).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', gpsPort: 10110, gpsGates: { field: 3 } });
  });

  it('write nothing of a patch with one bad field, and name that field', () => {
    const store = memoryStoreFactory()('settings');
    const settings = new Settings(store);
    const told: SettingsView[] = [];
    settings.onChange((now) => told.push(now));
    const refused = settings.save({ theme: 'dark', gpsHost: 'gps.local/path', tileAttribution: 'a<b' });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.issues.map((issue) => issue.field)).toEqual(['tileAttribution', 'gpsHost']);
    expect(store.get('theme')).toBeUndefined();
    expect(settings.now()).toEqual(DEFAULT_SETTINGS);
    expect(told).toEqual([]);
  });

  it('store strings as a socket or the map takes them and tell the listeners once', () => {
    const store = memoryStoreFactory()('settings');
    const settings = new Settings(store);
    const told: SettingsView[] = [];
    settings.onChange((now) => told.push(now));
    const saved = settings.save({ gpsHost: ' [::1] ', tileAttribution: ' © Example ', gpsGate: { profileId: 'field', meters: 8 } });
    expect(saved).toEqual({ ok: true, value: { ...DEFAULT_SETTINGS, gpsHost: '::1', tileAttribution: '© Example', gpsGates: { field: 8 } } });
    expect(store.get('gpsHost')).toBe('::1');
    expect(told).toEqual([saved.ok && saved.value]);
    settings.save({ gpsGate: { profileId: 'field', meters: null } });
    expect(settings.now().gpsGates).toEqual({});
  });
});
