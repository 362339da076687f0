// The built-in sandbox as the app's Sandbox profile uses it: the hosts pass this starter to the core
// (which never imports the sandbox). It listens on loopback only and keeps its state in the given
// data file; the demo account's sites are read straight from the running sandbox, since the real
// service's way of listing sites is an operation the spec leaves out.
import { startSandbox } from './index';
import type { SandboxSite } from './state';

/** A site of the demo account, in the register's words (siteId, not the sandbox's id). */
export type SandboxSiteListing = { siteId: string } & Pick<SandboxSite, 'name' | 'height' | 'latitude' | 'longitude' | 'description' | 'group' | 'pinStyle'>;

export interface BuiltInSandbox {
  url: string;
  servicePath: string;
  namespace: string;
  demo: { account: string; key: string };
  accountSites(): SandboxSiteListing[];
  close(): Promise<void>;
}

export async function startBuiltInSandbox(options: { port: number; dataFile: string }): Promise<BuiltInSandbox> {
  const running = await startSandbox({ port: options.port, host: '127.0.0.1', dataFile: options.dataFile });
  return {
    url: running.url,
    servicePath: running.servicePath,
    namespace: running.namespace,
    demo: running.demo,
    accountSites: () =>
      running
        .snapshot()
        .sites.filter((site) => site.account === running.demo.account)
        .map(({ id, name, height, latitude, longitude, description, group, pinStyle }) => ({ siteId: id, name, height, latitude, longitude, description, group, pinStyle })),
    close: () => running.close(),
  };
}
