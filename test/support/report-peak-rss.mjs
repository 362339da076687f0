// Loaded with `node --import` into a child process a test measures: at exit it writes the process's
// peak resident memory (every thread's, getrusage's maximum) to stderr as "peak-rss <bytes>".
import { writeSync } from 'node:fs';

process.on('exit', () => writeSync(2, `\npeak-rss ${process.resourceUsage().maxRSS * 1024}\n`));
