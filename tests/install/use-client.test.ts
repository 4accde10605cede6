import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, readCatalogue } from "./registry-catalogue";

// In a React Server Components app (Next.js App Router), a module that uses hooks, context, event
// handlers or browser APIs must say "use client", or the server page that imports it fails to
// build; a module that can render on the server (pure helpers, types, the core) must not, or it
// drags everything it imports into the browser bundle.

/** What makes a module client-only, each with the reason a failure names. */
const CLIENT_ONLY: readonly [RegExp, string][] = [
  [/\buse[A-Z]\w*\s*[(<]/, "calls a hook"],
  [/\bcreateContext\s*[(<]/, "creates a context"],
  [/\son[A-Z]\w*=\{/, "handles an event"],
  [
    /\b(window|document|localStorage|sessionStorage|navigator|ResizeObserver|IntersectionObserver|matchMedia|requestAnimationFrame)\b/,
    "uses a browser API",
  ],
];

/** The source without comments and string contents, so only code is judged. */
function codeOf(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
}

/** Why a module must be a client module, or undefined when it can render on the server. */
function clientReason(source: string): string | undefined {
  const code = codeOf(source);
  return CLIENT_ONLY.find(([pattern]) => pattern.test(code))?.[1];
}

/** Whether the module's first statement is the "use client" directive. */
function saysUseClient(source: string): boolean {
  return /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*["']use client["'];?/.test(source);
}

const files = readCatalogue().items.flatMap((item) => item.files.map((file) => file.path));

describe('"use client" on the registry\'s files', () => {
  it.each(files)("%s says it exactly when it is a client module", (path) => {
    const source = readFileSync(join(ROOT, path), "utf8");
    const reason = clientReason(source);
    if (reason)
      expect(saysUseClient(source), `${path} ${reason}: it must start with "use client"`).toBe(true);
    else expect(saysUseClient(source), `${path} can render on the server: drop "use client"`).toBe(false);
  });

  it("tells client modules from server-safe ones", () => {
    expect(clientReason("const [a, set] = React.useState(0);")).toBe("calls a hook");
    expect(clientReason("const C = createContext<X | null>(null);")).toBe("creates a context");
    expect(clientReason("return <button onClick={go} />;")).toBe("handles an event");
    expect(clientReason("const w = window.innerWidth;")).toBe("uses a browser API");
    expect(clientReason('// useState is not called here\nconst s = "useRef(";')).toBeUndefined();
    expect(clientReason("export function settle(q: Question[]) { return q.map(String); }")).toBeUndefined();
  });
});
