// The colour theme, in two places: a quick toggle in the top bar (System → Light → Dark, its state
// in words) and the same choice in Settings. Both save at once through saveSettings; the settings
// event (and the call's answer) bring it back to every window, and App puts it on <html>.
import { useId } from 'react';
import { THEMES, type Theme } from '../../../../electron/shared/domain';
import { useAppState } from '../../shared/store/app-store';
import { issueText } from '../../shared/issues';
import { THEME_WORDS, nextTheme } from '../../shared/theme';
import { useUi, type Ui } from '../../shared/ui/ui-context';

async function saveTheme(ui: Ui, theme: Theme): Promise<void> {
  const before = ui.store.getState().settings;
  // Shown at once; put back if the host refuses it.
  ui.store.applySettings({ ...before, theme });
  const result = await ui.call(() => ui.api.saveSettings({ theme }));
  if (result?.ok) ui.store.applySettings(result.value);
  else {
    ui.store.applySettings(before);
    if (result) ui.toast(issueText(result.issues), { tone: 'error' });
  }
}

const HINTS: Record<Theme, string> = {
  system: 'follows this computer’s light or dark setting',
  light: 'dark text on white, for sunlight',
  dark: 'light text on dark, for night work',
};

/** The top bar's button: one press moves to the next theme. */
export function ThemeToggle() {
  const ui = useUi();
  const theme = useAppState(ui.store, (s) => s.settings.theme);
  const next = nextTheme(theme);
  return (
    <button
      type="button"
      className="theme-toggle"
      data-testid="theme-toggle"
      // Its name whether or not its words are shown (a narrow window shows the disc alone).
      aria-label={`Theme: ${THEME_WORDS[theme]}`}
      title={`Colours: ${THEME_WORDS[theme]} (${HINTS[theme]}). Press for ${THEME_WORDS[next]}.`}
      onClick={() => void saveTheme(ui, next)}
    >
      <svg className="theme-icon" width="18" height="18" viewBox="0 0 20 20" aria-hidden="true">
        <circle cx="10" cy="10" r="8" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M10 2a8 8 0 0 1 0 16z" fill="currentColor" />
      </svg>
      <span className="theme-words">Theme: {THEME_WORDS[theme]}</span>
    </button>
  );
}

/** The same choice in Settings, as three radio buttons. */
export function ThemeSettings() {
  const ui = useUi();
  const id = useId();
  const theme = useAppState(ui.store, (s) => s.settings.theme);
  return (
    <section className="panel-card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Colours</h3>
      <fieldset className="unit-choice theme-choice">
        <legend>Theme</legend>
        {THEMES.map((value) => (
          <label key={value} className={theme === value ? 'checked' : ''}>
            <input type="radio" name={`${id}-theme`} value={value} checked={theme === value} onChange={() => void saveTheme(ui, value)} />
            {THEME_WORDS[value]} <span className="choice-hint">— {HINTS[value]}</span>
          </label>
        ))}
      </fieldset>
      <p className="form-help">Saved at once. The top bar&apos;s Theme button switches it too.</p>
    </section>
  );
}
