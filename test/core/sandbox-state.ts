// Reads the sandbox's own record of the account's sites (its inspection endpoint), so tests compare
// what really reached the service with what was queued.

export interface SandboxSite {
  id: string;
  name: string;
  description: string;
  height: number | null;
  latitude: number | null;
  longitude: number | null;
  group: string;
  pinStyle: number | null;
}

export async function sandboxSites(url: string): Promise<SandboxSite[]> {
  const response = await fetch(`${url}/_sandbox/sites`);
  if (!response.ok) throw new Error(`GET /_sandbox/sites answered ${response.status}`);
  const body = (await response.json()) as unknown;
  const list = Array.isArray(body) ? body : ((body as { sites?: unknown[] }).sites ?? []);
  return list.map((raw) => {
    const site = raw as Record<string, unknown>;
    const number = (value: unknown) => (value === undefined || value === null || value === '' ? null : Number(value));
    return {
      id: String(site.siteId ?? site.id),
      name: String(site.name ?? ''),
      description: String(site.description ?? ''),
      height: number(site.height),
      latitude: number(site.latitude),
      longitude: number(site.longitude),
      group: String(site.group ?? ''),
      pinStyle: number(site.pinStyle),
    };
  });
}
