// Hand-written checks of the common record shapes, for the fast path of RecordReader: loading 100,000
// records through zod costs more than reading them, and zod copies every record it accepts. A check
// built here accepts a value only when it has exactly the keys its schema knows (the schema would
// strip any other) and each passes the same test the schema makes, so the value as it is equals what
// the schema would return. Whatever does not fit exactly goes to the schema, which has the last word.

/** One key's test; `required`: the schema has no .optional() on it. */
export interface KeyRule {
  required: boolean;
  test: (value: unknown) => boolean;
}

export type Shape = (value: unknown) => boolean;

/** A plain object with only `rules`' keys, every required one present, each passing its test. */
export function exactObject(rules: Record<string, KeyRule>): Shape {
  const table = new Map(Object.entries(rules));
  let requiredCount = 0;
  for (const rule of table.values()) if (rule.required) requiredCount++;
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    let required = 0;
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) return false;
      const rule = table.get(key);
      if (rule === undefined || !rule.test(record[key])) return false;
      if (rule.required) required++;
    }
    return required === requiredCount;
  };
}

export const req = (test: Shape): KeyRule => ({ required: true, test });
export const opt = (test: Shape): KeyRule => ({ required: false, test });

// The tests zod 4 makes: z.string(), z.number() (finite), .int() (safe integer), .nonnegative(), …
export const isString: Shape = (value) => typeof value === 'string';
export const isNonEmptyString: Shape = (value) => typeof value === 'string' && value.length > 0;
export const isNumber: Shape = (value) => typeof value === 'number' && Number.isFinite(value);
export const isBoolean: Shape = (value) => typeof value === 'boolean';
export const isNonNegativeInt: Shape = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
export const isPositiveInt: Shape = (value) => Number.isSafeInteger(value) && (value as number) > 0;
export const oneOf = (values: readonly unknown[]): Shape => (value) => values.includes(value);
export const literal = (expected: unknown): Shape => (value) => value === expected;
export const nullable = (test: Shape): Shape => (value) => value === null || test(value);
export const arrayOf = (test: Shape): Shape => (value) => Array.isArray(value) && value.every(test);
export const either = (...tests: Shape[]): Shape => (value) => tests.some((test) => test(value));
