// What the hosts and the CLI hand the core as its sandbox starter: the sandbox's code is loaded only
// when the Sandbox profile is first used, so a run on a real account never pays for it.
import type { BuiltInSandbox } from './starter';

export function builtInSandbox(options: { port: number; dataFile: string }): Promise<BuiltInSandbox> {
  return import('./starter').then((starter) => starter.startBuiltInSandbox(options));
}
