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

/** The files of shadcn's own registry that are fixtures here: `colors/*`, `utils` and `interface.json`. */
const FIXTURES = join(ROOT, "tests", "install", "fixtures", "shadcn");

/** One primitive as shadcn ships it: the facts `interface.json` records from shadcn's sources. */
export interface ShippedPrimitive extends PrimitiveNeeds {
  /** The names its file exports, sorted. */
  exports: string[];
  /** The `data-slot` values its parts carry, sorted. */
  dataSlots: string[];
}

/** shadcn's primitives as its registry ships them, by item name (`tests/install/fixtures/shadcn/interface.json`). */
export function shippedPrimitives(): Record<string, ShippedPrimitive> {
  return JSON.parse(readFileSync(join(FIXTURES, "interface.json"), "utf8")).primitives;
}

/** The packages every React app has; a shadcn item does not list them. */
const HOST_PACKAGES = new Set(["react", "react-dom"]);

/** What a primitive's source needs beside itself: npm packages, shadcn items, client or not. */
export interface PrimitiveNeeds {
  /** The npm packages it imports, sorted (React, which every app has, left out). */
  dependencies: string[];
  /** The shadcn items it imports (`utils` for `cn`, `button`…), sorted. */
  registryDependencies: string[];
  /** Whether it starts with `"use client"`. */
  client: boolean;
}

/** Reads {@link PrimitiveNeeds} off a primitive's source. */
export function primitiveNeeds(source: string): PrimitiveNeeds {
  const imports = importsOf(source);
  const dependencies = new Set(
    imports.map(packageOf).filter((name): name is string => name !== undefined && !HOST_PACKAGES.has(name)),
  );
  const registryDependencies = new Set(
    imports.flatMap((specifier) =>
      specifier === "@/lib/utils"
        ? ["utils"]
        : specifier.startsWith("@/components/ui/")
          ? [specifier.slice("@/components/ui/".length)]
          : [],
    ),
  );
  return {
    dependencies: [...dependencies].sort(),
    registryDependencies: [...registryDependencies].sort(),
    client: /^["']use client["']/.test(source.trimStart()),
  };
}

/**
 * The registry item of one primitive (`button`, `radio-group`…) as shadcn's registry serves it:
 * its source as the file's content, the npm packages and shadcn items it imports. shadcn's own
 * items leave `lucide-react` out (`shadcn init` installs the icon library); the fresh apps here
 * are not initialised by the CLI, so the stand-in lists it with the rest.
 */
function primitiveItem(path: string): object {
  const source = readFileSync(join(ROOT, path), "utf8");
  const { dependencies, registryDependencies } = primitiveNeeds(source);
  return {
    $schema: "https://ui.shadcn.com/schema/registry-item.json",
    name: primitiveName(path),
    type: "registry:ui",
    dependencies,
    registryDependencies,
    files: [{ path: `registry/new-york-v4/ui/${basename(path)}`, content: source, type: "registry:ui" }],
  };
}

/**
 * Writes a stand-in for shadcn's home registry into `dir`, for the CLI's `REGISTRY_URL`: the
 * fixtures (`colors/*`, `utils`) and, as `styles/new-york-v4/<name>.json`, the primitives of
 * `src/components/ui/` our items name in `registryDependencies`. Returns `dir`.
 */
export function writeShadcnHome(dir: string): string {
  cpSync(FIXTURES, dir, { recursive: true, filter: (path) => basename(path) !== "interface.json" });
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
