// Tables of examples for small pure functions (formatters, labels): one row per input, the expected
// answer last. A row that fails is named by its call, so the table reads like the spec it checks.
import { expect } from 'vitest';

export function expectExamples<A extends unknown[], R>(fn: (...args: A) => R, examples: ReadonlyArray<readonly [...args: A, expected: R]>): void {
  for (const example of examples) {
    const args = example.slice(0, -1) as A;
    const call = `${fn.name}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`;
    expect(fn(...args), call).toBe(example[example.length - 1]);
  }
}
