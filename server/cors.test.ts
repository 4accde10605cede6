import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatBody } from "../tests/support/agent-api";
import { createApp } from "./app";
import { parseCorsOrigins } from "./http/cors";
import type { PrepickServer } from "./server";
import { startServer } from "./testing/harness";
import { refactorer } from "./testing/test-agents";

const APP = "http://localhost:5173";
let server: PrepickServer;

beforeAll(async () => {
  server = await startServer({ agents: [refactorer], corsOrigins: [APP] });
}, 60_000);
afterAll(async () => {
  await server.close();
}, 60_000);

const preflight = (origin: string) =>
  fetch(`${server.url}/agent/chat`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type, last-event-id",
    },
  });

describe("a page on another origin", () => {
  it("gets its preflight allowed, with credentials and the client's headers, before any actor", async () => {
    const response = await preflight(APP);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-allow-credentials")).toBe("true");
    expect(response.headers.get("access-control-allow-headers")?.split(",")).toEqual(
      expect.arrayContaining(["content-type", "x-actor-id", "last-event-id"]),
    );
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("reads a chat's run id, and keeps the actor cookie the server issues", async () => {
    const response = await fetch(`${server.url}/agent/chat`, {
      method: "POST",
      headers: { origin: APP, "content-type": "application/json" },
      body: JSON.stringify(chatBody("refactorer", "Refactor the parser")),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-allow-credentials")).toBe("true");
    expect(response.headers.get("access-control-expose-headers")).toContain("x-run-id");
    expect(response.headers.get("set-cookie")).toMatch(/^prepick_actor=/);
    await response.body?.cancel();
  });

  it("gives an origin it does not list no CORS headers, so the browser refuses the response", async () => {
    const response = await preflight("http://evil.example");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const plain = await fetch(`${server.url}/agent/agents`, { headers: { origin: "http://evil.example" } });
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("a page on another origin, while the server shuts down", () => {
  it("can read the 503 and its Retry-After, so it knows to try again", async () => {
    const prepick = await createApp({ agents: [refactorer], corsOrigins: [APP] });
    await prepick.close();
    const response = await prepick.app.fetch(
      new Request("http://prepick.test/agent/approvals", { headers: { origin: APP, "x-actor-id": "ada" } }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-expose-headers")?.split(",")).toContain("retry-after");
    expect(response.headers.get("retry-after")).toBe("1");
  }, 60_000);
});

describe("PREPICK_CORS_ORIGINS", () => {
  it("reads origins separated by commas, and none from an empty value", () => {
    expect(parseCorsOrigins(" http://localhost:5173, https://app.example.com/ ")).toEqual([
      "http://localhost:5173",
      "https://app.example.com",
    ]);
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins(" ")).toEqual([]);
  });

  it("refuses a wildcard written as an origin, rather than taking it literally", () => {
    for (const pattern of ["http://*.example.com", "*", "https://app.example.com:*"]) {
      expect(() => parseCorsOrigins(`http://localhost:5173,${pattern}`)).toThrow(
        `PREPICK_CORS_ORIGINS lists each origin exactly; a wildcard such as ${JSON.stringify(pattern)} is not supported`,
      );
    }
  });

  it("refuses what is not an origin, naming it", () => {
    for (const bad of ["localhost:5173", "http://localhost:5173/app", "ftp://files.example"]) {
      expect(() => parseCorsOrigins(bad)).toThrow(
        `PREPICK_CORS_ORIGINS must list origins such as http://localhost:5173 (a scheme and a host, no path), not ${JSON.stringify(bad)}`,
      );
    }
  });
});
