// What the top bar says of the service, and the sandbox's fault injection that the tests move it
// with: the e2e files that check the connection status against 503s, hung calls and refused
// connections share these two.
import type { Page } from 'playwright';
import type { FaultConfig } from '../../electron/sandbox/faults';

/** PUT {sandbox}/_sandbox/faults: the whole fault config is replaced ({} turns every fault off). */
export async function setFaults(base: string, faults: FaultConfig): Promise<void> {
  const response = await fetch(`${base}/_sandbox/faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(faults) });
  if (!response.ok) throw new Error(`sandbox faults: HTTP ${response.status} ${await response.text()}`);
}

/** The top bar's connection status, or a note that none is shown. */
export async function connection(page: Page): Promise<string> {
  return (await page.getByTestId('connection').textContent().catch(() => null)) ?? '(no connection status shown)';
}
