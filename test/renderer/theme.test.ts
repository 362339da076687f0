// The theme's pure parts: the quick toggle's order and how 'system' resolves. The palette itself is
// checked in Chromium (test/e2e/layout.test.ts, and axe's contrast check in test/e2e/a11y.test.ts).
import { describe, expect, it } from 'vitest';
import { nextTheme, resolveTheme } from '../../renderer/src/shared/theme';

describe('theme', () => {
  it('cycles System, Light, Dark and back to System', () => {
    expect(nextTheme('system')).toBe('light');
    expect(nextTheme('light')).toBe('dark');
    expect(nextTheme('dark')).toBe('system');
  });

  it("follows the system's setting only for 'system'", () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});
