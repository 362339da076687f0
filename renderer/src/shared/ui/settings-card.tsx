// A card of Settings that saves part of the app's settings (sync and units, position): the card
// checks its own values first (a problem shows beside its field and nothing is sent), then saves;
// what the host refuses comes back beside the field it is about, and what it saved goes to the store
// at once.
import { useState, type ReactNode } from 'react';
import type { SettingsPatch } from '../../../../electron/shared/contract/index';
import { issuesByField } from '../issues';
import { TitledForm } from './field';
import { useUi } from './ui-context';

/**
 * The card's problems by field; `wholeNumber`, a field's text read as a whole number from `min` to
 * `max`, or null with `problem` shown beside the field; and `save`: true once the host has saved the
 * patch (the store has the new settings and the user has been told `savedMessage`).
 */
export function useSettingsSave<F extends string>(savedMessage: string) {
  const ui = useUi();
  const [issues, setIssues] = useState<Partial<Record<F, string>>>({});
  const wholeNumber = (field: F, text: string, min: number, max: number, problem: string): number | null => {
    const n = Number(text.trim());
    if (/^\d+$/.test(text.trim()) && n >= min && n <= max) return n;
    setIssues({ [field]: problem } as Partial<Record<F, string>>);
    return null;
  };
  const save = async (patch: SettingsPatch): Promise<boolean> => {
    const result = await ui.call(() => ui.api.saveSettings(patch));
    if (!result) return false;
    if (!result.ok) {
      setIssues(issuesByField(result.issues));
      return false;
    }
    setIssues({});
    ui.store.applySettings(result.value);
    ui.toast(savedMessage, { tone: 'success' });
    return true;
  };
  return { issues, setIssues, wholeNumber, save };
}

/** The card: a form titled `title` (its heading's id is `${id}-title`), its one button at the end. */
export function SettingsCard({ id, title, submitLabel, onSubmit, children }: { id: string; title: string; submitLabel: string; onSubmit: () => Promise<unknown>; children: ReactNode }) {
  return (
    <TitledForm id={id} title={title} heading="h3" onSubmit={onSubmit}>
      {children}
      <div className="actions">
        <button type="submit" className="primary">
          {submitLabel}
        </button>
      </div>
    </TitledForm>
  );
}
