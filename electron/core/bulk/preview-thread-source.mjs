// The import preview's worker thread where Sitewalk runs from source (the `sitewalk` executable, the
// browser host): registers tsx — found from this file's place, the project's node_modules, not from
// the folder the user started Sitewalk in — then loads the thread's TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./preview-thread.ts');
