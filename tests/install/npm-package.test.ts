import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempFolders, tempFolder } from "../support/temp-folder";
import { NPM_ENV, runCommand } from "./fresh-app";
import { ROOT } from "./registry-catalogue";

// The package as npm would publish it: `npm pack` (which builds it through `prepack`), installed
// into a consumer outside this repository with npm's strict peer checks (so every peer it names
// must be met by a range it declares), and loaded from there.
const TIMEOUT = 5 * 60_000;
let consumer: string;
let packedFiles: string[];
let tarballPath: string;

beforeAll(async () => {
  const work = tempFolder("prepick-npm-package-");
  const packed = await runCommand("npm", ["pack", "--pack-destination", work, "--json"], {
    cwd: ROOT,
    timeoutMs: TIMEOUT,
  });
  const [tarball] = JSON.parse(packed.output.slice(packed.output.indexOf("["))) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (!tarball) throw new Error(`npm pack printed no package:\n${packed.output}`);
  packedFiles = tarball.files.map((file) => file.path);
  tarballPath = join(work, tarball.filename);
  consumer = join(work, "consumer");
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  // Only the package itself, the React types a TypeScript app has, and the AG-UI client an app
  // that talks to an AG-UI agent adds (an optional peer); npm brings the other peers.
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({
      name: "consumer",
      private: true,
      type: "module",
      dependencies: {
        prepick: `file:../${tarball.filename}`,
        "@types/react": manifest.devDependencies["@types/react"],
        "@ag-ui/client": manifest.devDependencies["@ag-ui/client"],
      },
    }),
  );
  await runCommand("npm", ["install", "--strict-peer-deps"], {
    cwd: consumer,
    env: NPM_ENV,
    timeoutMs: TIMEOUT,
  });
  // Every peer met, nothing missing or out of range.
  await runCommand("npm", ["ls", "--all"], { cwd: consumer, env: NPM_ENV, timeoutMs: 60_000 });
}, TIMEOUT);
// The consumer app holds the client peers (lucide-react alone ships ~5,000 files): removing it takes a while.
afterAll(() => removeTempFolders(), 120_000);

describe("the npm package", () => {
  it("ships the built layers and their types, and no test support", () => {
    expect(packedFiles).toContain("dist/package/components.js");
    expect(packedFiles).toContain("dist/package/types/src/components/index.d.ts");
    expect(
      packedFiles.filter((path) => /\.(test|stories|fixture)\b|fixtures?\b|testing\//.test(path)),
    ).toEqual([]);
  });

  it("names the client's packages as peers, with the ranges this repository tests", () => {
    const manifest = JSON.parse(
      readFileSync(join(consumer, "node_modules", "prepick", "package.json"), "utf8"),
    );
    const peers = Object.keys(manifest.peerDependencies).sort();
    expect(peers).toEqual([
      "@ag-ui/client",
      "@ai-sdk/react",
      "@shadcn/react",
      "ai",
      "lucide-react",
      "radix-ui",
      "react",
      "react-dom",
      "streamdown",
      "zod",
    ]);
    // Only the AG-UI transport needs its client, so an app without it installs cleanly.
    expect(manifest.peerDependenciesMeta).toEqual({ "@ag-ui/client": { optional: true } });
    const repository = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    for (const peer of peers) {
      expect(manifest.peerDependencies[peer], peer).toBe(`^${repository.devDependencies[peer]}`);
      expect(manifest.dependencies[peer], `${peer} is a peer, not a dependency`).toBeUndefined();
    }
  });

  it(
    "loads every layer in Node from outside the repository, the server runs, and it shares one core",
    async () => {
      const script = [
        'import { validateAnswers, MAX_ASK_QUESTIONS, patternEngineReady } from "prepick/core";',
        'import { AgentChatTransport } from "prepick/transport";',
        'import { AgUiChatTransport } from "prepick/transport/ag-ui";',
        'import { mcpElicitationToRequest } from "prepick/adapters";',
        'import { useAgentConversation, useChatTranscript, createElicitation } from "prepick/hooks";',
        'import { ChatElicitation } from "prepick/components";',
        'import { createApp, defineAgent } from "prepick/server";',
        "const questions = [{ id: 'seats', prompt: 'How many seats?', input: { type: 'number', max: 9 } }];",
        "const app = await createApp({ agents: [defineAgent({ name: 'helper', systemPrompt: 'You help.' })] });",
        "const agents = await (await app.app.fetch(new Request('http://x/agent/agents', { headers: { 'x-actor-id': 'ada' } }))).json();",
        "await app.close();",
        // The server loads the pattern engine at start; one shared core sees it loaded.
        "const shared = patternEngineReady();",
        "console.log(JSON.stringify({",
        "  max: MAX_ASK_QUESTIONS,",
        "  issues: validateAnswers(questions, { seats: ['12'] }).map((issue) => issue.message),",
        "  kinds: [typeof AgentChatTransport, typeof AgUiChatTransport, typeof mcpElicitationToRequest, typeof useAgentConversation, typeof useChatTranscript, typeof createElicitation, typeof ChatElicitation],",
        "  agents: agents.agents.map((agent) => agent.name),",
        "  shared,",
        "}));",
      ].join("\n");
      writeFileSync(join(consumer, "check.mjs"), script);
      const { output } = await runCommand(process.execPath, ["check.mjs"], {
        cwd: consumer,
        timeoutMs: 120_000,
      });
      expect(JSON.parse(output.trim().split("\n").at(-1) ?? "")).toEqual({
        max: 5,
        issues: ['answers["seats"] must be at most 9'],
        kinds: ["function", "function", "function", "function", "function", "function", "function"],
        agents: ["helper"],
        shared: true,
      });
    },
    TIMEOUT,
  );

  // A bundler app resolves the package one way, a Node server (how `prepick/server` is imported)
  // another: Node's own ESM resolution needs every relative import in the types to name its file.
  it.each([
    ["bundler", { module: "esnext", moduleResolution: "bundler" }],
    ["node16", { module: "node16", moduleResolution: "node16" }],
    ["nodenext", { module: "nodenext", moduleResolution: "nodenext" }],
  ])(
    "gives a TypeScript consumer (moduleResolution %s) real types for every layer, none of them any",
    async (resolution, modules) => {
      writeFileSync(
        join(consumer, "check.ts"),
        [
          'import type { ElicitationOutcome } from "prepick/core";',
          'import { settleAnswers } from "prepick/core";',
          'import { AgentChatTransport, type ConversationTransport } from "prepick/transport";',
          'import { AgUiChatTransport } from "prepick/transport/ag-ui";',
          'import { mcpElicitationToRequest } from "prepick/adapters";',
          'import { useAgentConversation, useChatTranscript, type ElicitationBlock } from "prepick/hooks";',
          'import { ChatElicitation } from "prepick/components";',
          'import { createServer } from "prepick/server";',
          "type IsAny<T> = 0 extends 1 & T ? true : false;",
          "export const checks: false[] = [",
          "  false as IsAny<typeof settleAnswers>,",
          "  false as IsAny<ElicitationOutcome>,",
          "  false as IsAny<AgentChatTransport>,",
          "  false as IsAny<AgUiChatTransport>,",
          "  false as IsAny<ConversationTransport>,",
          "  false as IsAny<typeof mcpElicitationToRequest>,",
          "  false as IsAny<ReturnType<typeof useAgentConversation>>,",
          "  false as IsAny<ReturnType<typeof useAgentConversation>['messages']>,",
          "  false as IsAny<typeof useChatTranscript>,",
          "  false as IsAny<ElicitationBlock>,",
          "  false as IsAny<ElicitationBlock['getSnapshot']>,",
          "  false as IsAny<typeof ChatElicitation>,",
          "  false as IsAny<typeof createServer>,",
          "];",
          "export const transport: ConversationTransport = new AgentChatTransport();",
          "export const outcome: ElicitationOutcome = settleAnswers([], {});",
          "// @ts-expect-error the outcome has no such field",
          "export const wrong: string = outcome.nothing;",
          "",
        ].join("\n"),
      );
      writeFileSync(
        join(consumer, `tsconfig.${resolution}.json`),
        JSON.stringify({
          compilerOptions: {
            target: "es2022",
            ...modules,
            jsx: "react-jsx",
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          files: ["check.ts"],
        }),
      );
      await runCommand(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", `tsconfig.${resolution}.json`], {
        cwd: consumer,
        timeoutMs: 120_000,
      });
    },
    TIMEOUT,
  );

  it("has types that resolve for every entry under bundler and Node ESM: Are the Types Wrong? finds nothing", async () => {
    const attw = join(ROOT, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
    const { output } = await runCommand(
      process.execPath,
      [attw, tarballPath, "--profile", "esm-only", "--format", "ascii", "--no-color", "--no-emoji"],
      { cwd: consumer, timeoutMs: 120_000 },
    );
    // attw exits non-zero on any problem; and each entry says so for both resolutions.
    const entries = Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).exports);
    expect(output.match(/node16 \(from ESM\): OK \(ESM\)/g)).toHaveLength(entries.length);
    expect(output.match(/bundler: OK/g)).toHaveLength(entries.length);
  });

  it("is packaged as publint expects: no error, warning or suggestion", async () => {
    const publint = join(ROOT, "node_modules", "publint", "src", "cli.js");
    const { output } = await runCommand(process.execPath, [publint, "run", tarballPath, "--strict"], {
      cwd: consumer,
      timeoutMs: 120_000,
    });
    expect(output).toContain("All good!");
  });
});
