// The tests' fixtures: what a test needs is a parameter of the test, set up for it (only when it asks)
// and torn down after it, passed or failed. A new test is an import of `it` and its assertions.
//
//   fixture       scope  value
//   tempDir       test   an empty folder; removed after the test
//   fileTempDir   file   a folder the tests (and beforeAll hooks) of a file share; removed after the last
//   startSandbox  test   (options?) => a real sandbox on a random loopback port (demo data unless
//                        told otherwise); every one started is closed after the test
//   sandbox       test   a sandbox started with `sandboxSeed`
//   openCore      test   (options?) => a core: in tempDir unless given a dataDir, session-only keys, the
//                        built-in sandbox, quick retries, then `coreOptions`, then `options`; every one
//                        opened is closed after the test
//   core          test   a core whose active profile is `sandbox` (over `binding`), with the demo key
//   openBackend   test   (options?) => the hosts' backend (core + contract adapter) in tempDir, as the
//                        browser host opens it, then `coreOptions`, then `options`; every one opened
//                        is closed after the test
//   host          file   a browser host in front of a backend, in a folder of its own, with a stand-in
//                        renderer; shared by the tests of a file, closed after the last
//
// Options, set for a file or a describe block with `it.override(name, value)`:
//   sandboxSeed 'demo' | 'empty' (default 'demo'), binding (default 'http-post'), coreOptions (default {}).
import { test as base } from 'vitest';
import { openHostBackend, type HostBackend, type OpenBackendOptions } from '../../electron/core/host-backend';
import { openCore, type CoreOptions, type SitewalkCore } from '../../electron/core/open-core';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../electron/sandbox/index';
import type { Binding } from '../../electron/shared/domain';
import { QUICK_SYNC, testCoreOptions, useService } from './core';
import { startTestHost } from './host';
import { makeTempDir } from './temp';

export type Seed = NonNullable<SandboxOptions['seed']>;
export type TestCoreOptions = Partial<CoreOptions>;

/** Closes everything `track` was given, newest first: the cleanup of a factory fixture. */
function closer<T extends { close(): Promise<void> }>(): { track(item: T): T; closeAll(): Promise<void> } {
  const items: T[] = [];
  return {
    track(item) {
      items.push(item);
      return item;
    },
    closeAll: async () => {
      for (const item of items.splice(0).reverse()) await item.close();
    },
  };
}

export const test = base
  // Vitest reads a fixture's dependencies from its first parameter, which must be a pattern: `{}` is "none".
  // eslint-disable-next-line no-empty-pattern
  .extend('tempDir', async ({}, { onCleanup }) => {
    const dir = await makeTempDir();
    onCleanup(() => dir.remove());
    return dir.path;
  })
  // eslint-disable-next-line no-empty-pattern
  .extend('fileTempDir', { scope: 'file' }, async ({}, { onCleanup }) => {
    const dir = await makeTempDir();
    onCleanup(() => dir.remove());
    return dir.path;
  })
  .extend('sandboxSeed', 'demo' as Seed)
  // eslint-disable-next-line no-empty-pattern
  .extend('startSandbox', async ({}, { onCleanup }) => {
    const started = closer<RunningSandbox>();
    onCleanup(started.closeAll);
    return async (options: SandboxOptions = {}): Promise<RunningSandbox> => started.track(await startSandbox({ port: 0, host: '127.0.0.1', seed: 'demo', ...options }));
  })
  .extend('sandbox', ({ startSandbox, sandboxSeed }) => startSandbox({ seed: sandboxSeed }))
  .extend('coreOptions', {} as TestCoreOptions)
  .extend('openCore', async ({ tempDir, coreOptions }, { onCleanup }) => {
    const opened = closer<SitewalkCore>();
    onCleanup(opened.closeAll);
    return async (options: TestCoreOptions = {}): Promise<SitewalkCore> => opened.track(await openCore(testCoreOptions({ dataDir: tempDir, ...QUICK_SYNC, ...coreOptions, ...options })));
  })
  .extend('binding', 'http-post' as Binding)
  // The sandbox first, so it is closed after the core (fixtures are torn down in reverse).
  .extend('core', async ({ sandbox, binding, openCore }) => {
    // No built-in sandbox: this core's service is `sandbox`.
    const core = await openCore({ sandbox: false });
    await useService(core, sandbox.url, { binding });
    return core;
  })
  .extend('openBackend', async ({ tempDir, coreOptions }, { onCleanup }) => {
    const opened = closer<HostBackend>();
    onCleanup(opened.closeAll);
    return async (options: Partial<OpenBackendOptions> = {}): Promise<HostBackend> =>
      opened.track(await openHostBackend({ host: 'browser', ...testCoreOptions({ dataDir: tempDir, ...coreOptions }), ...options }));
  })
  // eslint-disable-next-line no-empty-pattern
  .extend('host', { scope: 'file' }, async ({}, { onCleanup }) => {
    const host = await startTestHost();
    onCleanup(() => host.close());
    return host;
  });

/** The same as `test`: the tests here are written with `it`. */
export const it = test;
