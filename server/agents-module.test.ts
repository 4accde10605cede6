import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiClient } from "../tests/support/api-client";
import { seededPgliteFolder } from "../tests/support/pglite-folder";
import { startServer } from "../tests/support/server-process";
import { removeTempFolders, tempFolder } from "../tests/support/temp-folder";

afterAll(() => removeTempFolders());

const store = () => join(tempFolder(), "store");
/** A store folder for a server that gets as far as opening it: the host's PGlite template, copied. */
const seeded = () => seededPgliteFolder(store());

describe("PREPICK_AGENTS_MODULE", { timeout: 60_000 }, () => {
  it("hosts the agents the module exports instead of the demo agents", async () => {
    const server = await startServer({
      env: {
        PREPICK_DATA_DIR: await seeded(),
        PREPICK_AGENTS_MODULE: "server/testing/agents-module.fixture.ts",
      },
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

  it("takes the module's authenticate: the header is not read, and nobody named answers 401", async () => {
    const server = await startServer({
      env: {
        PREPICK_DATA_DIR: await seeded(),
        PREPICK_AGENTS_MODULE: "server/testing/authenticated-agents-module.fixture.ts",
      },
    });
    try {
      const claimed = await apiClient(server.url, "ada").get("/agent/approvals");
      expect(claimed.status).toBe(401);
      const signedIn = await fetch(`${server.url}/agent/approvals`, {
        headers: { authorization: "Bearer zed" },
      });
      expect(signedIn.status).toBe(200);
      expect(await signedIn.json()).toEqual({ approvals: [], nextCursor: null });
    } finally {
      await server.kill("SIGTERM");
    }
  });

  it("turns x-actor-id off with PREPICK_TRUST_ACTOR_HEADER=false, and refuses a value it cannot read", async () => {
    const server = await startServer({
      env: { PREPICK_DATA_DIR: await seeded(), PREPICK_TRUST_ACTOR_HEADER: "false" },
    });
    try {
      const claimed = await apiClient(server.url, "ada").get("/agent/approvals");
      expect(claimed.status).toBe(400);
      expect(JSON.stringify(claimed.body)).toContain("PREPICK_TRUST_ACTOR_HEADER=false");
    } finally {
      await server.kill("SIGTERM");
    }
    await expect(
      startServer({ env: { PREPICK_DATA_DIR: store(), PREPICK_TRUST_ACTOR_HEADER: "maybe" } }),
    ).rejects.toThrow(/PREPICK_TRUST_ACTOR_HEADER must be true or false, not "maybe"/);
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
