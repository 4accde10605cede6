import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { primitiveName, primitiveSources, ROOT } from "./registry-catalogue";
import { primitiveNeeds, shippedPrimitives } from "./shadcn-home";

/** The names a source's closing `export { … }` block lists, sorted. */
function exportsOf(source: string): string[] {
  const block = source.match(/export\s*\{([^}]*)\}\s*;?\s*$/);
  if (!block) throw new Error("no closing export block");
  return (block[1] as string)
    .split(",")
    .map((name) => name.replace(/^\s*type\s+/, "").trim())
    .filter((name) => name !== "")
    .sort();
}

/** Every `data-slot="…"` literal a source writes, sorted. */
function dataSlotsOf(source: string): string[] {
  return [...new Set([...source.matchAll(/data-slot="([^"]+)"/g)].map((match) => match[1] as string))].sort();
}

const shipped = shippedPrimitives();
const standIns = primitiveSources();

// The install tests serve src/components/ui as shadcn's home registry: each stand-in must offer
// an app's code what shadcn's own file offers, or an item could build here and not in an app.
describe("the stand-ins for shadcn's primitives", () => {
  it("are exactly the primitives the record of shadcn's registry names", () => {
    expect(standIns.map(primitiveName).sort()).toEqual(Object.keys(shipped).sort());
  });

  for (const path of standIns) {
    const name = primitiveName(path) as string;
    it(`${name}: the same exports, data-slots, npm packages, shadcn items and client directive`, () => {
      const source = readFileSync(join(ROOT, path), "utf8");
      const expected = shipped[name];
      expect(expected, `interface.json records ${name}`).toBeDefined();
      expect({
        exports: exportsOf(source),
        dataSlots: dataSlotsOf(source),
        ...primitiveNeeds(source),
      }).toEqual({
        exports: [...(expected?.exports ?? [])].sort(),
        dataSlots: [...(expected?.dataSlots ?? [])].sort(),
        dependencies: [...(expected?.dependencies ?? [])].sort(),
        registryDependencies: [...(expected?.registryDependencies ?? [])].sort(),
        client: expected?.client,
      });
    });
  }

  it("import Radix through the unified radix-ui package and icons from lucide-react, as shadcn's do", () => {
    const imports = standIns.flatMap(
      (path) => primitiveNeeds(readFileSync(join(ROOT, path), "utf8")).dependencies,
    );
    expect(imports.filter((name) => name.startsWith("@radix-ui/"))).toEqual([]);
    expect(imports).toContain("radix-ui");
    expect(imports).toContain("lucide-react");
  });
});
