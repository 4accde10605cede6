/**
 * The one serializer of every value the store writes as a `jsonb` parameter: each statement
 * passes `json(value)` and casts it with `::jsonb`.
 */
export const json = (value: unknown) => JSON.stringify(value ?? null);
