import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, normalize, relative } from "node:path";

/** The repository root, as an absolute path. */
export const ROOT = join(import.meta.dirname, "..", "..");

/** The namespace users configure for this registry in `components.json`. */
export const NAMESPACE = "@prepick";

/** One file of a registry item, as written in `registry.json`. */
export interface CatalogueFile {
  /** Source path, relative to the repository root. */
  path: string;
  /** The shadcn file type (`registry:lib`, `registry:hook`, `registry:ui`, …). */
  type: string;
  /** Where the file lands in the user's project, when the type alone does not say. */
  target?: string;
}

/** One item of `registry.json`. */
export interface CatalogueItem {
  /** Kebab-case name: the last part of `@prepick/<name>`. */
  name: string;
  /** The shadcn item type. */
  type: string;
  /** Short human title. */
  title?: string;
  /** What the item brings. */
  description?: string;
  /** npm packages the item's files import. */
  dependencies?: string[];
  /** Other registry items the item's files import. */
  registryDependencies?: string[];
  /** The files the item installs. */
  files: CatalogueFile[];
}

/** A source layer and where its files land when installed. */
export interface Layer {
  /** Source folder, relative to the repository root. */
  folder: string;
  /** The alias the code imports this layer through (`@/lib/prepick/core`, `@/hooks`, …). */
  alias: string;
  /** The file type its files are listed with. */
  fileType: string;
  /** The target a file at `relativePath` inside the layer must be given (undefined: none). */
  target(relativePath: string): string | undefined;
}

/** The installable layers: each source file of these folders belongs to exactly one item. */
export const LAYERS: Layer[] = [
  {
    folder: "src/core",
    alias: "@/lib/prepick/core",
    fileType: "registry:lib",
    target: (path) => `lib/prepick/core/${path}`,
  },
  {
    folder: "src/transport",
    alias: "@/lib/prepick/transport",
    fileType: "registry:lib",
    target: (path) => `lib/prepick/transport/${path}`,
  },
  // Hooks and components follow the user's `hooks` and `ui` aliases, so they carry no target.
  { folder: "src/hooks", alias: "@/hooks", fileType: "registry:hook", target: () => undefined },
  { folder: "src/components", alias: "@/components/ui", fileType: "registry:ui", target: () => undefined },
];

/**
 * Files of the layers that are not installed through the registry: the barrels that serve the npm
 * package's exports, and the spec's example question sets (data for the demo, stories and tests).
 */
export const PACKAGE_ONLY_FILES = new Set([
  "src/hooks/index.ts",
  "src/components/index.ts",
  "src/core/spec-examples.ts",
]);

/**
 * The folder of the shadcn primitives (`button`, `radio-group`…) the components build on. An app
 * has its own, from shadcn's registry; these stand in for them here, and the install tests serve
 * them as shadcn's items. Our items name them by their bare shadcn name in `registryDependencies`.
 */
export const PRIMITIVES_FOLDER = "src/components/ui";

/** True for files that are tests, stories, test support (`*.fixture.ts`) or not installed at all. */
export function isNotInstalled(path: string): boolean {
  return (
    /\.(test|stories|fixture)\.[cm]?tsx?$/.test(path) ||
    PACKAGE_ONLY_FILES.has(path) ||
    path.startsWith(`${PRIMITIVES_FOLDER}/`)
  );
}

/** The shadcn primitives in {@link PRIMITIVES_FOLDER}, relative to the repository root, sorted. */
export function primitiveSources(): string[] {
  return readdirSync(join(ROOT, PRIMITIVES_FOLDER))
    .filter((name) => name.endsWith(".tsx") && !/\.(test|stories|fixture)\.tsx$/.test(name))
    .map((name) => `${PRIMITIVES_FOLDER}/${name}`)
    .sort();
}

/** The shadcn item a primitive's file is (`src/components/ui/radio-group.tsx` → `radio-group`). */
export function primitiveName(path: string): string | undefined {
  return path.startsWith(`${PRIMITIVES_FOLDER}/`) ? withoutExtension(basename(path)) : undefined;
}

/** Every installable source file of a layer, relative to the repository root, sorted. */
export function layerSources(layer: Layer): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    if (!existsSync(join(ROOT, folder))) return;
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !isNotInstalled(path)) files.push(path);
    }
  };
  walk(layer.folder);
  return files.sort();
}

/** The layer a source path belongs to, if any. */
export function layerOf(path: string): Layer | undefined {
  return LAYERS.find((layer) => path.startsWith(`${layer.folder}/`));
}

/** `registry.json`, parsed. */
export function readCatalogue(): { name: string; homepage: string; items: CatalogueItem[] } {
  return JSON.parse(readFileSync(join(ROOT, "registry.json"), "utf8"));
}

/** Every module specifier a source file imports or re-exports (static and dynamic). */
export function importsOf(source: string): string[] {
  const specifiers = new Set<string>();
  const patterns = [
    /\bfrom\s+["']([^"']+)["']/g,
    /\bimport\s+["']([^"']+)["']/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns)
    for (const match of source.matchAll(pattern)) specifiers.add(match[1] as string);
  return [...specifiers];
}

/** The npm package a bare specifier names (`@scope/pkg/sub` → `@scope/pkg`), or undefined. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("@/") || specifier.startsWith("node:"))
    return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The package name of a dependency entry (`zod@^4` → `zod`, `@ai-sdk/react@^4` → `@ai-sdk/react`). */
export function dependencyName(entry: string): string {
  const at = entry.indexOf("@", 1);
  return at === -1 ? entry : entry.slice(0, at);
}

/**
 * The source file an `@/…` specifier resolves to in this repository (without extension check).
 * `@/components/ui/…` is one of our components, else a shadcn primitive, as tsconfig.json's
 * `paths` try them.
 */
export function sourceOfAlias(specifier: string): string | undefined {
  if (specifier === "@/lib/utils") return "src/lib/utils.ts";
  for (const layer of LAYERS) {
    if (specifier === layer.alias) return `${layer.folder}/index.ts`;
    if (!specifier.startsWith(`${layer.alias}/`)) continue;
    const rest = specifier.slice(layer.alias.length + 1);
    const own = `${layer.folder}/${rest}`;
    const primitive = `${PRIMITIVES_FOLDER}/${rest}`;
    const exists = (base: string) => [".ts", ".tsx"].some((ext) => existsSync(join(ROOT, base + ext)));
    return layer.folder === "src/components" && !exists(own) && exists(primitive) ? primitive : own;
  }
  return undefined;
}

/** Relative path from the repository root, with forward slashes. */
export function fromRoot(path: string): string {
  return relative(ROOT, path).split("\\").join("/");
}

/** Where the CLI writes a file in an app with the default aliases under `src/`, without extension. */
export function installedPath(file: CatalogueFile): string {
  if (file.target) return `src/${file.target}`;
  const name = basename(file.path);
  if (file.type === "registry:hook") return `src/hooks/${name}`;
  if (file.type === "registry:ui") return `src/components/ui/${name}`;
  if (file.type === "registry:component") return `src/components/${name}`;
  if (file.type === "registry:lib") return `src/lib/${name}`;
  throw new Error(`no install location known for ${file.path} (${file.type})`);
}

/** A path joined and normalised with forward slashes. */
export function joinPosix(...parts: string[]): string {
  return normalize(join(...parts))
    .split("\\")
    .join("/");
}

/** The directory part of a forward-slash path. */
export function dirnamePosix(path: string): string {
  return dirname(path).split("\\").join("/");
}

/** A path without its `.ts`/`.tsx` extension. */
export function withoutExtension(path: string): string {
  return path.replace(/\.tsx?$/, "");
}
