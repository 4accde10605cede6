/**
 * A pattern built for catastrophic backtracking: nested quantifiers that a backtracking engine
 * explores in exponential time on a long run of `a` that ends in a character it cannot match.
 */
export const HOSTILE_PATTERN = "^(a+)+$";

/** A long answer the hostile pattern cannot match: the worst case for a backtracking engine. */
export const HOSTILE_VALUE = `${"a".repeat(30_000)}!`;

/** A long answer the hostile pattern matches. */
export const MATCHING_VALUE = "a".repeat(30_000);
