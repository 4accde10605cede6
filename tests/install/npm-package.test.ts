import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempFolders, tempFolder } from "../support/temp-folder";
import { runCommand } from "./fresh-app";
import { ROOT } from "./registry-catalogue";

// The package as npm would publish it: `npm pack` (which builds it through `prepack`), unpacked
// into a consumer's node_modules beside the dependencies, and loaded from outside this repository.
const TIMEOUT = 5 * 60_000;
let consumer: string;

beforeAll(async () => {
  const work = tempFolder("prepick-npm-package-");
  const packed = await runCommand("npm", ["pack", "--pack-destination", work, "--json"], {
    cwd: ROOT,
    timeoutMs: TIMEOUT,
  });
  const tarball = JSON.parse(packed.output.slice(packed.output.indexOf("[")))[0]?.filename as string;
  consumer = join(work, "consumer");
  const modules = join(consumer, "node_modules");
  mkdirSync(join(modules, "prepick"), { recursive: true });
  await runCommand(
    "tar",
    ["xzf", join(work, tarball), "-C", join(modules, "prepick"), "--strip-components=1"],
    {
      cwd: work,
      timeoutMs: 60_000,
    },
  );
  // The dependencies come from this repository's install, as npm would have installed them.
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    if (entry === "prepick" || entry.startsWith(".")) continue;
    symlinkSync(join(ROOT, "node_modules", entry), join(modules, entry));
  }
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", type: "module" }));
}, TIMEOUT);
afterAll(() => removeTempFolders());

describe("the npm package", () => {
  it(
    "loads every layer in Node from outside the repository, the server runs, and it shares one core",
    async () => {
      const script = [
        'import { validateAnswers, MAX_ASK_QUESTIONS, patternEngineReady } from "prepick/core";',
        'import { AgentChatTransport } from "prepick/transport";',
        'import { AgUiChatTransport } from "prepick/transport/ag-ui";',
        'import { useChatTranscript, createElicitation } from "prepick/hooks";',
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
        "  kinds: [typeof AgentChatTransport, typeof AgUiChatTransport, typeof useChatTranscript, typeof createElicitation, typeof ChatElicitation],",
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
        kinds: ["function", "function", "function", "function", "function"],
        agents: ["helper"],
        shared: true,
      });
    },
    TIMEOUT,
  );

  it(
    "gives a TypeScript consumer real types for every layer, none of them any",
    async () => {
      writeFileSync(
        join(consumer, "check.ts"),
        [
          'import type { ElicitationOutcome } from "prepick/core";',
          'import { settleAnswers } from "prepick/core";',
          'import { AgentChatTransport } from "prepick/transport";',
          'import { AgUiChatTransport } from "prepick/transport/ag-ui";',
          'import { useChatTranscript, type ElicitationBlock } from "prepick/hooks";',
          'import { ChatElicitation } from "prepick/components";',
          'import { createServer } from "prepick/server";',
          "type IsAny<T> = 0 extends 1 & T ? true : false;",
          "export const checks: [false, false, false, false, false, false, false, false] = [",
          "  false as IsAny<typeof settleAnswers>,",
          "  false as IsAny<ElicitationOutcome>,",
          "  false as IsAny<AgentChatTransport>,",
          "  false as IsAny<AgUiChatTransport>,",
          "  false as IsAny<typeof useChatTranscript>,",
          "  false as IsAny<ElicitationBlock>,",
          "  false as IsAny<typeof ChatElicitation>,",
          "  false as IsAny<typeof createServer>,",
          "];",
          "export const outcome: ElicitationOutcome = settleAnswers([], {});",
          "// @ts-expect-error the outcome has no such field",
          "export const wrong: string = outcome.nothing;",
          "",
        ].join("\n"),
      );
      writeFileSync(
        join(consumer, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "es2022",
            module: "esnext",
            moduleResolution: "bundler",
            jsx: "react-jsx",
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          files: ["check.ts"],
        }),
      );
      await runCommand(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], {
        cwd: consumer,
        timeoutMs: 120_000,
      });
    },
    TIMEOUT,
  );
});
