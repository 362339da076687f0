// Whether the page still reaches Sitewalk: the bridge says when the host has gone or the session was
// lost. Back again (restarted and its new address pasted, or reachable again), the store loads
// everything anew: events were missed meanwhile.
import { useEffect, useState } from 'react';
import type { HostLink } from '../../api';
import type { AppStore } from '../../shared/store/app-store';

export function useHostLink(store: AppStore, onHostLink: (listener: (link: HostLink) => void) => () => void): HostLink {
  const [link, setLink] = useState<HostLink>({ state: 'ok' });
  useEffect(() => {
    let down = false;
    return onHostLink((next) => {
      setLink(next);
      if (down && next.state === 'ok') void store.start();
      down = next.state !== 'ok';
    });
  }, [onHostLink, store]);
  return link;
}
