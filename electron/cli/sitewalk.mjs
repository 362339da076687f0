#!/usr/bin/env node
// The `sitewalk` executable: registers tsx so the TypeScript CLI runs without a build step, then
// runs it (run.ts: argv to main(), and the exit once the answer is flushed).
import { register } from 'tsx/esm/api';

register();
await import('./run.ts');
