import { cutText } from "./cut-text";

/** The parts of a JSON Schema the scripted model reads; a tool's schema may hold more. */
interface SchemaNode {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
  properties?: Record<string, unknown>;
  required?: string[];
  items?: unknown;
  minItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

const MAX_DEPTH = 4;

function firstType(schema: SchemaNode): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== "null") : schema.type;
}

function numberFor(schema: SchemaNode, text: string, integer: boolean): number {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : low);
  for (const match of text.matchAll(/-?\d+(?:\.\d+)?/g)) {
    const found = Number(match[0]);
    if (integer && !Number.isInteger(found)) continue;
    if (found >= low && found <= Math.max(low, high)) return found;
  }
  return integer ? Math.ceil(low) : low;
}

function stringFor(schema: SchemaNode, text: string): string {
  if (schema.format === "email") return "someone@example.com";
  if (schema.format === "uri" || schema.format === "url") return "https://example.com";
  if (schema.format === "date") return "2026-01-01";
  let value = text.trim() || "default";
  if (schema.maxLength !== undefined) value = cutText(value, schema.maxLength);
  // Padding counts characters as the schema does: code points, not UTF-16 units.
  if (schema.minLength !== undefined) value += ".".repeat(Math.max(0, schema.minLength - [...value].length));
  return value;
}

function valueFor(definition: unknown, text: string, depth: number): Value {
  if (definition === null || typeof definition !== "object" || depth > MAX_DEPTH) return null;
  const schema = definition as SchemaNode;
  if (schema.const !== undefined) return schema.const as Value;
  if (schema.enum !== undefined) {
    const mentioned = schema.enum.find((value) => typeof value === "string" && text.includes(value));
    return (mentioned ?? schema.enum[0] ?? null) as Value;
  }
  if (schema.default !== undefined) return schema.default as Value;
  const variants = schema.anyOf ?? schema.oneOf ?? [];
  // A union of string constants is an enum with titles: the one the request mentions, as for an enum.
  const mentioned = variants.find((variant) => {
    const value = (variant as SchemaNode | null)?.const;
    return typeof value === "string" && text.includes(value);
  });
  if (mentioned !== undefined) return (mentioned as SchemaNode).const as Value;
  const variant = variants[0];
  if (variant !== undefined) return valueFor(variant, text, depth + 1);
  switch (firstType(schema)) {
    case "string":
      return stringFor(schema, text);
    case "number":
      return numberFor(schema, text, false);
    case "integer":
      return numberFor(schema, text, true);
    case "boolean":
      return false;
    case "array": {
      const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
      const count = schema.minItems ?? 0;
      return Array.from({ length: count }, () => valueFor(items, text, depth + 1));
    }
    case "object":
      return objectFor(schema, text, depth);
    default:
      return null;
  }
}

function objectFor(schema: SchemaNode, text: string, depth: number): { [key: string]: Value } {
  const result: { [key: string]: Value } = {};
  for (const key of schema.required ?? []) {
    result[key] = valueFor(schema.properties?.[key], text, depth + 1);
  }
  return result;
}

/**
 * A tool input valid for the common shapes of a tool's JSON Schema, derived from the request:
 * required properties only; enums and unions of string constants pick a value the request
 * mentions, else their first; numbers take the first number in the request within bounds, else
 * the minimum; strings take the text.
 */
export function inputFromSchema(schema: unknown, text: string): { [key: string]: Value } {
  return schema !== null && typeof schema === "object" ? objectFor(schema as SchemaNode, text, 0) : {};
}
