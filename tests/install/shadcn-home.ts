import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { type CommandResult, NPM_ENV, runCommand } from "./fresh-app";
import { importsOf, packageOf, primitiveName, primitiveSources, ROOT } from "./registry-catalogue";

/** The shadcn CLI this repository pins. */
const SHADCN = join(ROOT, "node_modules", "shadcn", "dist", "index.js");

/**
 * Runs the real shadcn CLI in the app at `dir`, offline: its home registry is the stand-in at
 * `shadcnUrl` (see {@link writeShadcnHome}). `input` answers its prompts, as a person at the
 * terminal would; without it, a prompt ends the command.
 */
export function runShadcn(
  dir: string,
  shadcnUrl: string,
  args: string[],
  input?: string,
): Promise<CommandResult> {
  return runCommand(process.execPath, [SHADCN, ...args], {
    cwd: dir,
    env: { ...NPM_ENV, CI: "1", REGISTRY_URL: shadcnUrl },
    timeoutMs: 240_000,
    ...(input !== undefined ? { input } : {}),
  });
}

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
