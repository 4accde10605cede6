import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, expectTypeOf, test } from "vitest";
import { z } from "zod";
import { specIntake } from "../../src/core/spec-examples";
import { seededPgliteFolder } from "../../tests/support/pglite-folder";
import { removeTempFolders, tempFolder } from "../../tests/support/temp-folder";
import { createApp } from "../app";
import { AgentModule } from "./agent-module";
import { AgentDefinitionError, checkAgents } from "./check-agents";
import {
  AGENT_DEFINITION,
  Agent,
  agentOf,
  defineAgent,
  defineTool,
  Injectable,
  isAgentClass,
} from "./define-agent";
import type { AgentConfig } from "./types";

const run = promisify(execFile);

/** The spec's `@Agent` example, as a plain config. */
const specRefactorer: AgentConfig = {
  name: "refactorer",
  systemPrompt: "You refactor TypeScript.",
  intake: specIntake,
};

const echo = defineTool({
  name: "echo",
  description: "Echoes its text.",
  inputSchema: z.object({ text: z.string() }),
  execute: (input) => input.text,
});

/** Applies a class decorator the way the TC39 proposal calls it, for a test without a compiler pass. */
function decorate(decorator: ReturnType<typeof Agent>, target: abstract new () => unknown) {
  decorator(target, {
    kind: "class",
    name: target.name,
    metadata: {},
    addInitializer: () => {},
  } as unknown as ClassDecoratorContext<abstract new () => unknown>);
}

describe("@Agent and defineAgent", () => {
  test("the decorator, compiled as the server runs it, records the same agent as defineAgent", async () => {
    const script = fileURLToPath(new URL("./examples/print-decorated-agent.ts", import.meta.url));
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const { stdout } = await run(process.execPath, ["--import", "tsx", script], {
      cwd: root,
      timeout: 20_000,
    });
    const printed = JSON.parse(stdout) as Record<string, unknown>;
    expect(printed.recorded).toEqual(defineAgent(specRefactorer));
    expect(printed.checked).toEqual(JSON.parse(JSON.stringify(checkAgents([defineAgent(specRefactorer)]))));
    expect(printed.isAgentClass).toBe(true);
    expect(printed.plainIsAgentClass).toBe(false);
    expect(printed.instance).toBe(true);
  });

  test("records the config on the class itself, not on its subclasses", () => {
    class Refactorer {}
    decorate(Agent(specRefactorer), Refactorer);
    decorate(Injectable(), Refactorer);
    expect(agentOf(Refactorer)).toEqual(defineAgent(specRefactorer));
    expect(Object.keys(Refactorer)).not.toContain(String(AGENT_DEFINITION));
    class Derived extends Refactorer {}
    expect(isAgentClass(Derived)).toBe(false);
    expect(() => agentOf(Derived)).toThrow('Class "Derived" has no @Agent({ … }) decorator');
  });

  test("checkAgents accepts decorated classes beside configs", () => {
    class Refactorer {}
    decorate(Agent(specRefactorer), Refactorer);
    const [fromClass, fromConfig] = checkAgents([
      Refactorer,
      defineAgent({ name: "other", systemPrompt: "x", tools: [echo] }),
    ]);
    expect(fromClass).toEqual(checkAgents([specRefactorer])[0]);
    expect(fromConfig?.tools.map((tool) => tool.name)).toEqual(["echo"]);
  });
});

describe("defineTool", () => {
  test("infers the handler's input from the schema", async () => {
    expectTypeOf(echo.execute).parameter(0).toEqualTypeOf<{ text: string }>();
    const context = {
      runId: "r",
      threadId: "t",
      actorId: "a",
      toolCallId: "c",
      idempotencyKey: "r:c",
      abortSignal: new AbortController().signal,
    };
    expect(await echo.execute({ text: "hi" }, context)).toBe("hi");
  });
});

describe("checkAgents", () => {
  test("parses each intake: when filled in and a hotkey on every option", () => {
    const [agent] = checkAgents([specRefactorer]);
    expect(agent?.intake?.when).toBe("thread-start");
    expect(agent?.intake?.questions[1]?.options?.map((option) => option.hotkey)).toEqual(["a", "b"]);
  });

  test("names the agent, the question and the rule of an intake problem", () => {
    const booking = defineAgent({
      name: "booking",
      systemPrompt: "You book.",
      intake: {
        questions: [
          {
            id: "seats",
            prompt: "How many seats?",
            input: { type: "number", min: 1, max: 9 },
            defaults: ["12"],
          },
        ],
      },
    });
    expect(() => checkAgents([booking])).toThrow(
      new AgentDefinitionError([
        'Agent "booking": intake questions["seats"].defaults[0] "12" must be at most 9',
      ]),
    );
  });

  test("reports every problem of every agent in one error", () => {
    const problems = (() => {
      try {
        checkAgents([
          { name: "a", systemPrompt: "", tools: [echo, echo] },
          { name: "a", systemPrompt: "", tools: [{ ...echo, name: "ask" }] },
          {
            name: "b",
            systemPrompt: "",
            intake: { questions: [{ id: "scope", prompt: "Which?", options: [{ value: "x", label: "X" }] }] },
          },
          { name: "bad name", systemPrompt: "" },
        ]);
      } catch (error) {
        if (error instanceof AgentDefinitionError) return error.problems;
        throw error;
      }
      return [];
    })();
    expect(problems).toEqual([
      'Agent "a": tool "echo" is declared more than once',
      'Agent "a": tool "ask" is reserved: the loop offers ask itself (set ask: true instead)',
      'Agent "a": name is used by another agent',
      'Agent "b": intake questions["scope"].defaults must pre-pick at least one option: the answer you would choose',
      'Agent "bad name": name must start with a letter or digit and hold only letters, digits, ".", "_" or "-"',
    ]);
  });

  test("names an undecorated class", () => {
    class Plain {}
    expect(() => checkAgents([Plain])).toThrow('agents[0]: Class "Plain" has no @Agent({ … }) decorator');
  });

  test("resolves ask: the agent's own, else the module's, else false", () => {
    const agents = [
      { name: "own-on", systemPrompt: "", ask: true },
      { name: "own-off", systemPrompt: "", ask: false },
      { name: "inherits", systemPrompt: "" },
    ];
    const asks = (module?: { ask?: boolean }) => checkAgents(agents, module).map((agent) => agent.ask);
    expect(asks()).toEqual([true, false, false]);
    expect(asks({ ask: true })).toEqual([true, false, true]);
    expect(asks({ ask: false })).toEqual([true, false, false]);
  });
});

describe("AgentModule.forRoot", () => {
  afterAll(() => removeTempFolders());

  test("checks the agents at once and gives back options createApp hosts, ask applying to every agent", async () => {
    const module = AgentModule.forRoot({
      agents: [{ name: "helper", systemPrompt: "You help." }],
      ask: true,
    });
    // On a copy of the host's initialised PGlite folder: in memory, PGlite's initdb ran inside
    // this test's time (7–9 s of CPU on a loaded machine), for nothing the test is about.
    const app = await createApp({ ...module, dataDir: await seededPgliteFolder(tempFolder()) });
    try {
      expect(app.agents.map((agent) => [agent.name, agent.ask])).toEqual([["helper", true]]);
    } finally {
      await app.close();
    }
    expect(() =>
      AgentModule.forRoot({
        agents: [
          {
            name: "b",
            systemPrompt: "x",
            intake: { questions: [{ id: "scope", prompt: "Which?", options: [{ value: "x", label: "X" }] }] },
          },
        ],
      }),
    ).toThrow(/Agent "b": intake questions\["scope"\]\.defaults must pre-pick at least one option/);
  });
});
