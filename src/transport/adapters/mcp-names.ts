import { RESERVED_QUESTION_IDS } from "@/lib/prepick/core/check-questions";

// MCP allows any string as a property name and as an enum value; a Prepick question id may not be
// empty or collide with object internals, and an option value may not be empty. A name that could
// not be used as it is gets this mark in front, and so does a name that already starts with it,
// so every name maps to one id and back without a table.
const MARK = "~";

function marked(name: string, unsafe: boolean): string {
  return unsafe || name.startsWith(MARK) ? `${MARK}${name}` : name;
}

function unmarked(id: string): string {
  return id.startsWith(MARK) ? id.slice(MARK.length) : id;
}

/**
 * The question id of an MCP property: the name itself, or `~` and the name when the name is
 * empty, is an `Object.prototype` member or a reserved id (`constructor`, `__proto__`,
 * `toString`, `prototype`…), or starts with `~`.
 */
export function mcpQuestionId(name: string): string {
  return marked(name, name === "" || name in Object.prototype || RESERVED_QUESTION_IDS.has(name));
}

/** The MCP property name a question id stands for: the inverse of {@link mcpQuestionId}. */
export function mcpPropertyName(questionId: string): string {
  return unmarked(questionId);
}

/** The option value of an MCP enum value: the value itself, or `~` and the value when it is empty or starts with `~`. */
export function mcpOptionValue(value: string): string {
  return marked(value, value === "");
}

/** The MCP enum value an option value stands for: the inverse of {@link mcpOptionValue}. */
export function mcpEnumValue(optionValue: string): string {
  return unmarked(optionValue);
}
