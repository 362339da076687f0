// Light (sunlight) or dark (night) colours. The setting is 'system', 'light' or 'dark'; <html> carries
// it as data-theme, and app/base.css picks the palette from that attribute (and, for 'system', from
// prefers-color-scheme), whose colours are light-dark() pairs. The map's canvas cannot use CSS
// variables, so the colours it needs are resolved from the stylesheet once per change of the resolved
// theme (readMapPalette), never per frame.
import { useEffect, useLayoutEffect, useState } from 'react';
import { THEMES, type Theme } from '../../../electron/shared/domain';

export type ResolvedTheme = 'light' | 'dark';

export const THEME_WORDS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

const DARK_QUERY = '(prefers-color-scheme: dark)';
/** The last theme applied, so the next start shows the right colours before the settings arrive. */
const SAVED_KEY = 'sitewalk.theme';

/** The quick toggle's order: System → Light → Dark → System. */
export function nextTheme(theme: Theme): Theme {
  return THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!;
}

export function resolveTheme(theme: Theme, systemDark: boolean): ResolvedTheme {
  return theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
}

function systemPrefersDark(): boolean {
  return globalThis.matchMedia?.(DARK_QUERY).matches ?? false;
}

/** Sets <html data-theme> (and remembers it for the next start). */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset['theme'] = theme;
  try {
    globalThis.localStorage?.setItem(SAVED_KEY, theme);
  } catch {
    // Storage unavailable: the next start begins on the system's setting until the settings load.
  }
}

/** The theme applied last time, for the first paint. */
export function savedTheme(): Theme {
  try {
    const value = globalThis.localStorage?.getItem(SAVED_KEY);
    return THEMES.includes(value as Theme) ? (value as Theme) : 'system';
  } catch {
    return 'system';
  }
}

/**
 * Keeps <html data-theme> on the setting (null: not loaded yet, the saved one stays). A layout effect:
 * the map's effects read the colours after it.
 */
export function useApplyTheme(theme: Theme | null): void {
  useLayoutEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
}

/** Light or dark as shown now: the setting, or the system's for 'system' (followed live). */
export function useResolvedTheme(theme: Theme): ResolvedTheme {
  const [systemDark, setSystemDark] = useState(systemPrefersDark);
  useEffect(() => {
    const query = globalThis.matchMedia?.(DARK_QUERY);
    if (!query) return;
    const onChange = () => setSystemDark(query.matches);
    onChange();
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return resolveTheme(theme, systemDark);
}

/** The colours the map draws on its canvases (pins' labels, clusters, highlight, the offline grid). */
export interface MapPalette {
  labelInk: string;
  labelHalo: string;
  clusterFill: string;
  clusterRing: string;
  clusterInk: string;
  /** The selected pin's ring: outer and inner colour. */
  highlightOuter: string;
  highlightInner: string;
  /** A light outline around pins and dots, so dark outlines do not vanish on a dark map; '' for none. */
  pinHalo: string;
  gridBackground: string;
  gridLine: string;
}

export const LIGHT_MAP_PALETTE: MapPalette = {
  labelInk: '#111111',
  labelHalo: 'rgba(255,255,255,0.95)',
  clusterFill: '#1d3557',
  clusterRing: '#ffffff',
  clusterInk: '#ffffff',
  highlightOuter: '#111111',
  highlightInner: '#ffd400',
  pinHalo: '',
  gridBackground: '#eef1ea',
  gridLine: '#8a9486',
};

const VARIABLES: Record<keyof MapPalette, string> = {
  labelInk: '--map-label-ink',
  labelHalo: '--map-label-halo',
  clusterFill: '--map-cluster-fill',
  clusterRing: '--map-cluster-ring',
  clusterInk: '--map-cluster-ink',
  highlightOuter: '--map-highlight-outer',
  highlightInner: '--map-highlight-inner',
  pinHalo: '--map-pin-halo',
  gridBackground: '--map-bg',
  gridLine: '--map-grid-line',
};

/** A colour's computed form when it is `transparent`: the stylesheet's way of saying "none". */
const TRANSPARENT = 'rgba(0, 0, 0, 0)';

/**
 * The map's colours as the stylesheet has them now (a missing variable keeps the light colour). A
 * custom property reads back as written ("light-dark(#111, #f1f1ef)"), not as a colour, so each one
 * is resolved through a hidden probe's computed colour, which follows the page's color-scheme. One
 * probe per colour, all in place before the first is read: the page's style is worked out once, not
 * once per colour (this runs while the map is first drawn).
 */
export function readMapPalette(element: Element = document.documentElement): MapPalette {
  const style = getComputedStyle(element);
  const palette = { ...LIGHT_MAP_PALETTE };
  const keys = (Object.keys(VARIABLES) as (keyof MapPalette)[]).filter((key) => style.getPropertyValue(VARIABLES[key]).trim() !== '');
  const probes = keys.map((key) => {
    const probe = document.createElement('span');
    probe.hidden = true;
    probe.style.color = `var(${VARIABLES[key]})`;
    return probe;
  });
  element.append(...probes);
  try {
    keys.forEach((key, i) => {
      const colour = getComputedStyle(probes[i]!).color;
      palette[key] = colour === TRANSPARENT ? '' : colour;
    });
  } finally {
    for (const probe of probes) probe.remove();
  }
  return palette;
}
