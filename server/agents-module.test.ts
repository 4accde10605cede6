import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiClient } from "../tests/support/api-client";
import { startServer } from "../tests/support/server-process";
import { removeTempFolders, tempFolder } from "../tests/support/temp-folder";

afterAll(() => removeTempFolders());

const store = () => join(tempFolder(), "store");

describe("PREPICK_AGENTS_MODULE", { timeout: 60_000 }, () => {
  it("hosts the agents the module exports instead of the demo agents", async () => {
    const server = await startServer({
      env: { PREPICK_DATA_DIR: store(), PREPICK_AGENTS_MODULE: "server/testing/agents-module.fixture.ts" },
    });
    try {
      const listed = await apiClient(server.url, "ada").get("/agent/agents");
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).toContain('"greeter"');
      expect(JSON.stringify(listed.body)).not.toContain('"refactorer"');
    } finally {
      await server.kill("SIGTERM");
    }
  });

  it("stops start-up with a message naming the module when it exports no agents", async () => {
    const failure = startServer({
      env: { PREPICK_DATA_DIR: store(), PREPICK_AGENTS_MODULE: "server/agents-module.ts" },
    });
    await expect(failure).rejects.toThrow(
      /PREPICK_AGENTS_MODULE "server\/agents-module\.ts" must export `agents`/,
    );
  });

  it("stops start-up with the reason when the module cannot be loaded", async () => {
    const failure = startServer({
      env: { PREPICK_DATA_DIR: store(), PREPICK_AGENTS_MODULE: "server/no-such-agents.ts" },
    });
    await expect(failure).rejects.toThrow(
      /PREPICK_AGENTS_MODULE "server\/no-such-agents\.ts" could not be loaded/,
    );
  });
});
