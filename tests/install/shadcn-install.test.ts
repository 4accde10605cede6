import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshApp, NPM_ENV, runCommand, writeEntry } from "./fresh-app";
import {
  type CatalogueItem,
  dependencyName,
  installedPath,
  NAMESPACE,
  ROOT,
  readCatalogue,
} from "./registry-catalogue";
import { type RegistryServer, startRegistryServer } from "./registry-server";
import { runShadcn, writeShadcnHome } from "./shadcn-home";

/** How long removing the fresh apps may take on a busy machine. */
const CLEANUP_TIMEOUT = 120_000;

// Installs run the real shadcn CLI and npm (from its cache first) into fresh apps: minutes, not seconds.
const INSTALL_TEST_TIMEOUT = 8 * 60_000;
const SHADCN = join(ROOT, "node_modules", "shadcn", "dist", "index.js");

const catalogue = readCatalogue();
let workDir: string;
let server: RegistryServer;

/** The item named `name`, or a failure that says which item `registry.json` lacks. */
function itemNamed(name: string): CatalogueItem {
  const item = catalogue.items.find((candidate) => candidate.name === name);
  if (!item) throw new Error(`registry.json has no item named ${name}`);
  return item;
}

/** An item and every item it depends on, ours by name; shadcn's `utils` stays a bare name. */
function closureOf(name: string): { items: CatalogueItem[]; shadcnItems: string[] } {
  const items = new Map<string, CatalogueItem>();
  const shadcnItems = new Set<string>();
  const visit = (itemName: string) => {
    if (items.has(itemName)) return;
    const item = itemNamed(itemName);
    items.set(itemName, item);
    for (const dependency of item.registryDependencies ?? []) {
      if (dependency.startsWith(`${NAMESPACE}/`)) visit(dependency.slice(NAMESPACE.length + 1));
      else shadcnItems.add(dependency);
    }
  };
  visit(name);
  return { items: [...items.values()], shadcnItems: [...shadcnItems] };
}

/** Runs the real shadcn CLI in the app at `dir`; both registries it reads are the loopback server. */
async function shadcn(dir: string, args: string[]): Promise<string> {
  return (await runShadcn(dir, server.shadcnUrl, args)).output;
}

/** Registers `@prepick` as the install docs say, then adds `@prepick/<name>` without prompts. */
async function shadcnAdd(dir: string, name: string): Promise<void> {
  await shadcn(dir, ["registry", "add", `${NAMESPACE}=${server.prepickUrl}/{name}.json`]);
  const components = JSON.parse(readFileSync(join(dir, "components.json"), "utf8"));
  expect(components.registries?.[NAMESPACE]).toBe(`${server.prepickUrl}/{name}.json`);
  await shadcn(dir, ["add", `${NAMESPACE}/${name}`, "--yes", "--overwrite"]);
}

/** Typechecks the app with its own TypeScript, under this process's Node. */
function typecheck(dir: string) {
  return runCommand(
    process.execPath,
    [join(dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", "tsconfig.json"],
    {
      cwd: dir,
      timeoutMs: 180_000,
    },
  );
}

/** Builds the app with its own Vite, under this process's Node. */
function viteBuild(dir: string) {
  return runCommand(process.execPath, [join(dir, "node_modules", "vite", "bin", "vite.js"), "build"], {
    cwd: dir,
    timeoutMs: 180_000,
  });
}

/** Asserts every file of the closure landed where its layout says, and its npm packages were added. */
function expectInstalled(dir: string, name: string) {
  const { items, shadcnItems } = closureOf(name);
  const expected = items.flatMap((item) => item.files.map(installedPath));
  // shadcn's own items: `utils`, and the primitives (`button`…) the components build on.
  for (const shadcnItem of shadcnItems)
    expected.push(shadcnItem === "utils" ? "src/lib/utils.ts" : `src/components/ui/${shadcnItem}.tsx`);
  const missing = expected.filter((path) => !existsSync(join(dir, path)));
  expect(missing, `files ${name} should have brought`).toEqual([]);

  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const installed = new Set(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }));
  const packages = items.flatMap((item) => (item.dependencies ?? []).map(dependencyName));
  expect(
    packages.filter((pkg) => !installed.has(pkg)),
    `npm packages ${name} should have added`,
  ).toEqual([]);
  for (const pkg of packages)
    expect(existsSync(join(dir, "node_modules", pkg, "package.json")), pkg).toBe(true);
}

/** Every file the CLI wrote under `src/`, relative to the app. */
function sourceFiles(dir: string): string[] {
  return (
    readdirSync(join(dir, "src"), { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[]
  )
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "prepick-install-"));
  await runCommand(process.execPath, [SHADCN, "build", "registry.json", "--output", join(workDir, "r")], {
    cwd: ROOT,
    timeoutMs: 60_000,
  });
  server = await startRegistryServer(join(workDir, "r"), writeShadcnHome(join(workDir, "shadcn")));
}, 90_000);

// Removing the apps (thousands of files each: lucide-react alone ships ~5,000) takes a while.
afterAll(async () => {
  await server?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, CLEANUP_TIMEOUT);

describe("shadcn add from the prepick registry, into a fresh Vite + React + Tailwind 4 app", () => {
  it(
    "installs the headless hook alone, with core and transport, and the app typechecks",
    async () => {
      const dir = join(workDir, "hook-app");
      await createFreshApp(dir);
      await shadcnAdd(dir, "use-chat-transcript");

      expectInstalled(dir, "use-chat-transcript");
      // Taking only the hook brings no styled component.
      expect(sourceFiles(dir).filter((path) => path.startsWith("src/components/"))).toEqual([]);
      writeEntry(
        dir,
        [
          'import { useChatTranscript } from "@/hooks/use-chat-transcript";',
          'import { AgentChatTransport } from "@/lib/prepick/transport";',
          'import { checkQuestions } from "@/lib/prepick/core";',
          "",
          "/** Proves the headless layers resolve through the app's aliases. */",
          "export function App() {",
          "  return <pre>{[typeof useChatTranscript, typeof AgentChatTransport, typeof checkQuestions].join()}</pre>;",
          "}",
          "",
        ].join("\n"),
      );
      await typecheck(dir);
      expect(
        server.requests.filter((request) => request.path.startsWith("/r/") && request.status !== 200),
      ).toEqual([]);
    },
    INSTALL_TEST_TIMEOUT,
  );

  it(
    "installs the AG-UI transport with @ag-ui/client; the hook over it typechecks and the app builds",
    async () => {
      const dir = join(workDir, "ag-ui-app");
      await createFreshApp(dir);
      await shadcnAdd(dir, "prepick-ag-ui-transport");
      await shadcnAdd(dir, "use-chat-transcript");
      // The app's own chat hook, as an app that talks to an agent has it.
      const react = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies[
        "@ai-sdk/react"
      ];
      await runCommand("npm", ["install", `@ai-sdk/react@${react}`], {
        cwd: dir,
        env: NPM_ENV,
        timeoutMs: 180_000,
      });

      expectInstalled(dir, "prepick-ag-ui-transport");
      writeEntry(
        dir,
        [
          'import { useChat } from "@ai-sdk/react";',
          'import { useChatTranscript } from "@/hooks/use-chat-transcript";',
          'import { AgUiChatTransport } from "@/lib/prepick/transport/ag-ui";',
          "",
          'const transport = new AgUiChatTransport({ url: "/api/agent" });',
          "",
          "/** An AG-UI agent's conversation through the headless hook, as docs/ag-ui.md shows it. */",
          "export function App() {",
          '  const chat = useChat({ id: "thread-1", transport });',
          "  const { messages } = useChatTranscript(chat, { transport });",
          "  return <pre>{messages.length}</pre>;",
          "}",
          "",
        ].join("\n"),
      );
      await typecheck(dir);
      await viteBuild(dir);
      expect(readdirSync(join(dir, "dist", "assets")).some((file) => file.endsWith(".js"))).toBe(true);
    },
    INSTALL_TEST_TIMEOUT,
  );

  it(
    "installs the agent-chat block alone with everything it needs; the app typechecks and builds",
    async () => {
      const dir = join(workDir, "block-app");
      await createFreshApp(dir);
      await shadcnAdd(dir, "agent-chat");

      expectInstalled(dir, "agent-chat");
      writeEntry(
        dir,
        [
          'import { AgentChat } from "@/components/agent-chat";',
          "",
          "/** The block as a user drops it into a page. */",
          "export function App() {",
          '  return <AgentChat agent="refactorer" title="Refactorer" />;',
          "}",
          "",
        ].join("\n"),
      );
      await typecheck(dir);
      await viteBuild(dir);
      const assets = readdirSync(join(dir, "dist", "assets"));
      expect(assets.some((file) => file.endsWith(".js"))).toBe(true);
      const cssFile = assets.find((file) => file.endsWith(".css"));
      expect(cssFile, "the build's stylesheet").toBeDefined();
      // Tailwind found the installed components' classes: only they use utilities in this app.
      const css = readFileSync(join(dir, "dist", "assets", cssFile as string), "utf8");
      const form = readFileSync(join(dir, "src", "components", "ui", "chat-elicitation.tsx"), "utf8");
      const utilities = [...form.matchAll(/\b((?:bg|text|border|rounded|gap|px|py)-[a-z0-9-]+)\b/g)].map(
        (m) => m[1],
      );
      expect(utilities.length, "utility classes in chat-elicitation.tsx").toBeGreaterThan(0);
      expect(utilities.filter((utility) => css.includes(`.${utility}`))).not.toEqual([]);
    },
    INSTALL_TEST_TIMEOUT,
  );
});
