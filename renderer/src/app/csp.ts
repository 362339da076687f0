// Runs before anything else is imported. zod 4 compiles object parsers with `new Function` unless
// told not to; under the hosts' CSP (no 'unsafe-eval') that probe would be refused and logged as a
// policy violation on every start. The shared schemas are built at import time, so this must come
// first in main.tsx.
import { z } from 'zod';

z.config({ jitless: true });
