import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { importsOf, packageOf, primitiveName, primitiveSources, ROOT } from "./registry-catalogue";

/** The files of shadcn's own registry that are fixtures here: `colors/*` and `utils`. */
const FIXTURES = join(ROOT, "tests", "install", "fixtures", "shadcn");

/** The packages every React app has; a shadcn item does not list them. */
const HOST_PACKAGES = new Set(["react", "react-dom"]);

/**
 * The registry item of one primitive (`button`, `radio-group`…) as shadcn's registry serves it:
 * its source as the file's content, the npm packages it imports, and `utils` for `cn`.
 */
function primitiveItem(path: string): object {
  const source = readFileSync(join(ROOT, path), "utf8");
  const imports = importsOf(source);
  const dependencies = [
    ...new Set(imports.map(packageOf).filter((name) => name !== undefined && !HOST_PACKAGES.has(name))),
  ];
  return {
    $schema: "https://ui.shadcn.com/schema/registry-item.json",
    name: primitiveName(path),
    type: "registry:ui",
    dependencies,
    registryDependencies: imports.includes("@/lib/utils") ? ["utils"] : [],
    files: [{ path: `registry/new-york-v4/ui/${basename(path)}`, content: source, type: "registry:ui" }],
  };
}

/**
 * Writes a stand-in for shadcn's home registry into `dir`, for the CLI's `REGISTRY_URL`: the
 * fixtures (`colors/*`, `utils`) and, as `styles/new-york-v4/<name>.json`, the primitives of
 * `src/components/ui/` our items name in `registryDependencies`. Returns `dir`.
 */
export function writeShadcnHome(dir: string): string {
  cpSync(FIXTURES, dir, { recursive: true });
  const styles = join(dir, "styles", "new-york-v4");
  mkdirSync(styles, { recursive: true });
  for (const path of primitiveSources()) {
    writeFileSync(
      join(styles, `${primitiveName(path)}.json`),
      `${JSON.stringify(primitiveItem(path), null, 2)}\n`,
    );
  }
  return dir;
}
