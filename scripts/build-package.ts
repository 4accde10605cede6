// `npm run build:package` (and `npm pack`, through `prepack`): the npm package's JavaScript and
// type declarations in dist/package/. The sources import each other through the path aliases an
// installed shadcn app uses (`@/lib/prepick/core`, `@/hooks/…`); the package resolves them here,
// so a consumer needs nothing of this repository's configuration.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist", "package");

/**
 * The app-style path aliases (`@/…`) of the repository's tsconfig, each as a prefix and the folders
 * or files it stands for, tried in order (`@/components/ui/*` is a component, else a primitive),
 * without the `.ts` ending a declaration's import leaves out. The package's own names
 * (`prepick/*`) stay as they are: a consumer resolves them through the exports.
 */
function appAliases(): { prefix: string; wildcard: boolean; targets: string[] }[] {
  const tsconfig = JSON.parse(readFileSync(join(ROOT, "tsconfig.json"), "utf8")) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return Object.entries(tsconfig.compilerOptions.paths)
    .filter(([alias]) => alias.startsWith("@/"))
    .map(([alias, targets]) => ({
      prefix: alias.replace(/\*$/, ""),
      wildcard: alias.endsWith("*"),
      targets: targets.map((target) => target.replace(/\*$/, "").replace(/\.ts$/, "")),
    }));
}

const ALIASES = appAliases();

/**
 * A relative specifier as Node's ESM resolution (`moduleResolution: node16`/`nodenext`) needs it:
 * with its `.js` ending, or a folder's `/index.js`; a bundler resolves either way.
 */
function withEnding(specifier: string, file: string): string {
  const path = join(dirname(file), specifier);
  if (existsSync(`${path}.d.ts`)) return `${specifier}.js`;
  if (existsSync(join(path, "index.d.ts"))) return `${specifier}/index.js`;
  return specifier;
}

/** A specifier in a declaration file at `file`: an alias made relative, and a relative one given its ending. */
function resolveSpecifier(specifier: string, file: string): string {
  for (const { prefix, wildcard, targets } of ALIASES) {
    const matches = wildcard ? specifier.startsWith(prefix) : specifier === prefix;
    if (!matches) continue;
    const rest = wildcard ? specifier.slice(prefix.length) : "";
    const candidates = targets.map((target) => join(OUT, "types", target + rest));
    const found =
      candidates.find((path) => existsSync(`${path}.d.ts`) || existsSync(join(path, "index.d.ts"))) ??
      (candidates[0] as string);
    const path = relative(dirname(file), found);
    return withEnding(path.startsWith(".") ? path : `./${path}`, file);
  }
  return specifier.startsWith(".") ? withEnding(specifier, file) : specifier;
}

async function declarationFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".d.ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

async function main(): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  const shared = {
    bundle: true,
    format: "esm",
    target: "es2022",
    outdir: OUT,
    packages: "external",
    tsconfig: join(ROOT, "tsconfig.json"),
    logLevel: "warning",
  } as const;
  // The client layers share chunks (one core, one transport), so a page loads each module once.
  await build({
    ...shared,
    entryPoints: {
      core: join(ROOT, "src/core/index.ts"),
      transport: join(ROOT, "src/transport/index.ts"),
      "transport-ag-ui": join(ROOT, "src/transport/ag-ui/index.ts"),
      adapters: join(ROOT, "src/transport/adapters/index.ts"),
      hooks: join(ROOT, "src/hooks/index.ts"),
      components: join(ROOT, "src/components/index.ts"),
    },
    splitting: true,
    platform: "neutral",
    mainFields: ["module", "main"],
    jsx: "automatic",
    chunkNames: "chunks/[name]-[hash]",
  });
  // The server imports the core as `prepick/core`, so it shares the package's one copy.
  // (External by name: the repository's tsconfig maps `prepick/*` to the sources for its own use.)
  await build({
    ...shared,
    entryPoints: { server: join(ROOT, "server/index.ts") },
    platform: "node",
    external: ["prepick/*"],
  });
  execFileSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", join(ROOT, "tsconfig.package.json")], {
    stdio: "inherit",
  });
  for (const file of await declarationFiles(join(OUT, "types"))) {
    const text = readFileSync(file, "utf8");
    const fixed = text.replace(
      /(from\s+|import\()(["'])([^"']+)\2/g,
      (_all, lead: string, quote: string, spec: string) =>
        `${lead}${quote}${resolveSpecifier(spec, file)}${quote}`,
    );
    if (fixed !== text) writeFileSync(file, fixed);
  }
}

await main();
