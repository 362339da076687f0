#!/usr/bin/env node
// The `sitewalk` executable: registers tsx so the TypeScript CLI runs without a build step, then
// hands argv to main.ts. It exits explicitly once stdout is flushed, because pooled keep-alive
// sockets would otherwise hold the process open for seconds after the answer.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
const code = await main(process.argv.slice(2));
process.stdout.write('', () => process.exit(code));
