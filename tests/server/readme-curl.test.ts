import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_AGENTS } from "../../server/agents/demo-agents";
import { createServer, type PrepickServer } from "../../server/index";
import { runCommand } from "../install/fresh-app";
import { ROOT } from "../install/registry-catalogue";
import { seededPgliteFolder } from "../support/pglite-folder";
import { removeTempFolders, tempFolder } from "../support/temp-folder";

// The README's curl sequence, word for word, against the reference server with the demo agents:
// it must start a run, answer its intake and show the run going on, as pasted into a shell.
let server: PrepickServer;

beforeAll(async () => {
  server = await createServer({
    agents: DEMO_AGENTS,
    port: 0,
    host: "127.0.0.1",
    dataDir: await seededPgliteFolder(tempFolder()),
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  removeTempFolders();
});

/** The README's block marked `<!-- curl-sequence -->`. */
function readmeSequence(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = /<!-- curl-sequence -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no block marked <!-- curl-sequence -->");
  return block;
}

describe("the README's curl sequence", () => {
  it("starts a run, answers its intake by the id it read, and the run goes on to its reply", {
    timeout: 90_000,
  }, async () => {
    const script = readmeSequence().replaceAll("http://localhost:3000", server.url);
    const { output } = await runCommand("bash", ["-euo", "pipefail", "-c", script], {
      cwd: ROOT,
      timeoutMs: 60_000,
    });
    const [answerLine = "", ...stream] = output.split("\n");
    const answer = JSON.parse(answerLine);
    expect(answer.toolCallId).toMatch(/^intake-run-/);
    expect(answer.output).toMatchObject({ answers: { scope: ["file"] }, skipped: false });
    const frames = stream
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice("data: ".length)));
    expect(frames.map((frame) => frame.kind)).toContain("tool-output");
    const reply = frames
      .filter((frame) => frame.kind === "text-delta")
      .map((frame) => frame.delta)
      .join("");
    expect(reply).toContain("- How much should I cover? **This file**");
    expect(frames.at(-1)).toEqual({ kind: "run-finish", status: "completed" });
  });
});
