/**
 * A pattern built for catastrophic backtracking: nested quantifiers that a backtracking engine
 * explores in exponential time on a long run of `a` that ends in a character it cannot match.
 */
export const HOSTILE_PATTERN = "^(a+)+$";

/**
 * A long answer the hostile pattern cannot match: the worst case for a backtracking engine, as
 * long as a value a pattern is run against may be (PATTERN_VALUE_LIMIT, 2048 characters).
 */
export const HOSTILE_VALUE = `${"a".repeat(2_047)}!`;

/** A long answer the hostile pattern matches. */
export const MATCHING_VALUE = "a".repeat(2_048);
