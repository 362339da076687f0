// Focus moves after React has drawn the screen it belongs to (the target may be a new element):
// focusSoon asks for the first of `targets` that is on the page then, or, with `onlyIfLost`, only
// when focus has fallen to <body>.
import { useCallback, useEffect, useState } from 'react';
import { firstPresent, focusLost, type FocusTarget } from './focus';

export function useFocusSoon(): (targets: Array<FocusTarget | null>, onlyIfLost?: boolean) => void {
  const [request, setRequest] = useState<{ targets: FocusTarget[]; onlyIfLost: boolean; seq: number } | null>(null);
  useEffect(() => {
    if (!request) return;
    if (request.onlyIfLost && !focusLost(document.activeElement, document.body)) return;
    firstPresent(request.targets)?.focus();
  }, [request]);
  return useCallback((targets: Array<FocusTarget | null>, onlyIfLost = false) => {
    setRequest((r) => ({ targets: targets.filter((t): t is FocusTarget => t !== null), onlyIfLost, seq: (r?.seq ?? 0) + 1 }));
  }, []);
}
