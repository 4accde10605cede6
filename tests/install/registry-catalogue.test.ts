import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { registrySchema } from "shadcn/schema";
import { describe, expect, it } from "vitest";
import {
  type CatalogueFile,
  type CatalogueItem,
  dependencyName,
  dirnamePosix,
  importsOf,
  installedPath,
  joinPosix,
  LAYERS,
  layerOf,
  layerSources,
  NAMESPACE,
  packageOf,
  primitiveName,
  ROOT,
  readCatalogue,
  sourceOfAlias,
  withoutExtension,
} from "./registry-catalogue";

// The host app brings these; an item never asks the CLI to install them.
const HOST_PACKAGES = new Set(["react", "react-dom"]);

const catalogue = readCatalogue();
const ownerOf = new Map<string, CatalogueItem>();
for (const item of catalogue.items) for (const file of item.files) ownerOf.set(file.path, item);

/** The repository file an import resolves to, trying the extensions the bundler would. */
function resolveSource(base: string | undefined): string | undefined {
  if (base === undefined) return undefined;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  const isFile = (candidate: string) =>
    existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile();
  return candidates.find((candidate) => ownerOf.has(candidate)) ?? candidates.find(isFile);
}

/** The entry `registryDependencies` must hold for a file owned by another item. */
function registryEntryFor(path: string): string | undefined {
  if (path === "src/lib/utils.ts") return "utils";
  const primitive = primitiveName(path);
  if (primitive !== undefined) return primitive;
  const owner = ownerOf.get(path);
  return owner ? `${NAMESPACE}/${owner.name}` : undefined;
}

describe("registry.json", () => {
  it("is a valid shadcn registry named prepick", () => {
    const parsed = registrySchema.parse(catalogue);
    expect(parsed.name).toBe("prepick");
    // Where the registry is browsed: the reference server serves the demo and /r/ there.
    expect(parsed.homepage).toBe("http://localhost:3000");
  });

  it("gives every item a unique kebab-case name, a title and a description", () => {
    const names = catalogue.items.map((item) => item.name);
    expect(new Set(names).size).toBe(names.length);
    for (const item of catalogue.items) {
      expect(item.name, `item name ${item.name}`).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(item.title, `title of ${item.name}`).toBeTruthy();
      expect(item.description, `description of ${item.name}`).toBeTruthy();
    }
  });

  it("lists every installable source file of every layer exactly once", () => {
    const listed = catalogue.items.flatMap((item) => item.files.map((file) => file.path));
    expect(listed.filter((path, index) => listed.indexOf(path) !== index)).toEqual([]);
    const missing = LAYERS.flatMap(layerSources).filter((path) => !ownerOf.has(path));
    expect(missing, "source files no registry item lists").toEqual([]);
    const gone = listed.filter((path) => !existsSync(join(ROOT, path)));
    expect(gone, "listed files that do not exist").toEqual([]);
  });

  it("keeps each layer's layout on install (file type and target)", () => {
    for (const item of catalogue.items) {
      for (const file of item.files) {
        const layer = layerOf(file.path);
        if (!layer) continue;
        const inside = file.path.slice(layer.folder.length + 1);
        expect({ path: file.path, type: file.type, target: file.target }).toEqual({
          path: file.path,
          type: layer.fileType,
          target: layer.target(inside),
        });
      }
    }
  });

  it("declares exactly the npm packages and registry items each item's files import", () => {
    for (const item of catalogue.items) {
      const packages = new Set<string>();
      const items = new Set<string>();
      for (const file of item.files) {
        const source = readFileSync(join(ROOT, file.path), "utf8");
        for (const specifier of importsOf(source)) {
          const name = packageOf(specifier);
          if (name !== undefined) {
            if (!HOST_PACKAGES.has(name)) packages.add(name);
            continue;
          }
          if (specifier.startsWith(".")) {
            // A sibling in the same installed folder: fine, as long as the item depends on its owner.
            const sibling = ownerOf.get(resolveSource(joinPosix(dirnamePosix(file.path), specifier)) ?? "");
            if (sibling && sibling !== item) items.add(`${NAMESPACE}/${sibling.name}`);
            continue;
          }
          if (!specifier.startsWith("@/")) continue;
          const target = resolveSource(sourceOfAlias(specifier));
          expect(target, `${file.path} imports ${specifier}, which no item provides`).toBeDefined();
          const entry = registryEntryFor(target as string);
          expect(entry, `${file.path} imports ${specifier}, which no item provides`).toBeDefined();
          if (ownerOf.get(target as string) !== item) items.add(entry as string);
        }
      }
      const declared = (item.dependencies ?? []).map(dependencyName).sort();
      expect(declared, `dependencies of ${item.name}`).toEqual([...packages].sort());
      expect([...(item.registryDependencies ?? [])].sort(), `registryDependencies of ${item.name}`).toEqual(
        [...items].sort(),
      );
    }
  });

  it("reaches other files relatively only where the installed files sit the same way", () => {
    for (const item of catalogue.items) {
      for (const file of item.files) {
        const source = readFileSync(join(ROOT, file.path), "utf8");
        for (const specifier of importsOf(source).filter((s) => s.startsWith("."))) {
          const target = resolveSource(joinPosix(dirnamePosix(file.path), specifier));
          const owner = target === undefined ? undefined : ownerOf.get(target);
          const targetFile = owner?.files.find((candidate) => candidate.path === target);
          expect(targetFile, `${file.path} imports ${specifier}, a file no item installs`).toBeDefined();
          expect(
            layerOf(target as string)?.folder,
            `${file.path} imports ${specifier} from another layer: import it through the layer's alias`,
          ).toBe(layerOf(file.path)?.folder);
          // Relative imports are not rewritten by the CLI: they must still point at the file after install.
          const landed = withoutExtension(joinPosix(dirnamePosix(installedPath(file)), specifier));
          const expected = withoutExtension(installedPath(targetFile as CatalogueFile));
          expect(
            [landed, `${landed}/index`],
            `${file.path} imports ${specifier}, which after install points at ${landed}, not ${expected}`,
          ).toContain(expected);
        }
      }
    }
  });
});
