import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The source file a relative specifier names, as TypeScript resolves it here. */
function resolveModule(from: string, specifier: string): string {
  const base = join(dirname(from), specifier);
  const found = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((path) => existsSync(path));
  if (!found) throw new Error(`${from} re-exports "${specifier}", which is no source file`);
  return found;
}

/** A module's source without its comments, so an example in a comment is never read as an export. */
function code(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
}

/**
 * Every name a module exports, values and types alike, read from its source: `export { … }` lists
 * (with `type` and `as`), `export * from` and `export type * from` followed to their modules, and
 * exported declarations. Enough for the barrels of this repository, which export nothing default.
 */
export function exportedNames(file: string): string[] {
  const source = code(file);
  const names = new Set<string>();
  for (const [, list] of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const entry of (list ?? "").split(",")) {
      const name = entry
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1);
      if (name) names.add(name);
    }
  }
  for (const [, specifier] of source.matchAll(/export\s+(?:type\s+)?\*\s+from\s+"([^"]+)"/g)) {
    for (const name of exportedNames(resolveModule(file, specifier ?? ""))) names.add(name);
  }
  const declaration =
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|abstract\s+class|interface|type|enum)\s+([A-Za-z0-9_$]+)/gm;
  for (const [, name] of source.matchAll(declaration)) if (name) names.add(name);
  return [...names].sort();
}
