import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiClient } from "./api-client";
import { startServer } from "./server-process";
import { removeTempFolders, tempFolder } from "./temp-folder";

afterAll(() => removeTempFolders());

describe("startServer", { timeout: 60_000 }, () => {
  it("resolves with the loopback URL the server printed, and stops it on SIGTERM", async () => {
    const server = await startServer({ env: { PREPICK_DATA_DIR: join(tempFolder(), "store") } });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(new URL(server.url).port).not.toBe("0");
      const agents = await apiClient(server.url, "ada").get("/agent/agents");
      expect(agents.status).toBe(200);
    } finally {
      await server.kill("SIGTERM");
    }
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it("fails with the server's own output when it exits before it is ready", async () => {
    // Port 1 on loopback refuses connections, so the store cannot open.
    const failure = startServer({ env: { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" } });
    await expect(failure).rejects.toThrow(
      /exited \(code 1, signal null\) before it was ready[\s\S]*could not start/,
    );
  });
});
