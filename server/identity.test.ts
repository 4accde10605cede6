import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTOR_COOKIE_MAX_AGE } from "./http/actor";
import { parseAllowedHosts } from "./http/host-check";
import type { PrepickServer } from "./server";
import { chat, startServer, tempDataDir } from "./testing/harness";
import { plain, refactorer } from "./testing/test-agents";

const APP = "http://localhost:5173";
let server: PrepickServer;
let folder: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  folder = await tempDataDir();
  server = await startServer({
    agents: [refactorer, plain],
    corsOrigins: [APP],
    demoDir: join(folder.path, "missing-demo"),
  });
}, 60_000);
afterAll(async () => {
  await server.close();
  await folder.remove();
}, 60_000);

/** What a browser sends when it loads a page by its address. */
const NAVIGATION = { "sec-fetch-site": "none", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };

/** Loads the page as a browser does on a first visit; returns the cookie pair and its attributes. */
async function loadPage(headers: Record<string, string> = NAVIGATION) {
  const response = await fetch(`${server.url}/`, { headers });
  await response.text();
  const setCookie = response.headers.get("set-cookie");
  return { setCookie, cookie: setCookie?.split(";")[0] ?? "" };
}

/** A parked run of the cookie's actor: the refactorer's intake waits for an answer. */
async function parkedRunOf(cookie: string): Promise<string> {
  const response = await fetch(`${server.url}/agent/chat`, {
    method: "POST",
    headers: {
      cookie,
      "content-type": "application/json",
      origin: server.url,
      "sec-fetch-site": "same-origin",
    },
    body: JSON.stringify({ message: { role: "user", parts: [{ type: "text", text: "Refactor it" }] } }),
  });
  expect(response.status).toBe(200);
  await response.text();
  const runId = response.headers.get("x-run-id") ?? "";
  expect((await server.store.runs.get(runId))?.status).toBe("parked");
  return runId;
}

describe("the actor cookie", () => {
  it("is issued when a person's page is first loaded: persistent, HttpOnly, SameSite=Lax", async () => {
    const { setCookie } = await loadPage();
    expect(setCookie).toBe(
      `${setCookie?.split(";")[0]}; Max-Age=${ACTOR_COOKIE_MAX_AGE}; Path=/; HttpOnly; SameSite=Lax`,
    );
    expect(setCookie).toMatch(/^prepick_actor=actor-[0-9a-f-]{36};/);
  });

  it("is Secure when the request came over HTTPS through a proxy (X-Forwarded-Proto)", async () => {
    const { setCookie } = await loadPage({ ...NAVIGATION, "x-forwarded-proto": "https" });
    expect(setCookie).toMatch(/; Secure; SameSite=Lax$/);
  });

  it("never replaces the cookie a page load or a request carries", async () => {
    const { cookie } = await loadPage();
    const again = await fetch(`${server.url}/`, { headers: { ...NAVIGATION, cookie } });
    expect(again.headers.get("set-cookie")).toBeNull();
    const read = await fetch(`${server.url}/agent/approvals`, {
      headers: { cookie, "sec-fetch-site": "same-origin" },
    });
    expect(read.headers.get("set-cookie")).toBeNull();
    expect(await read.json()).toEqual({ approvals: [], nextCursor: null });
  });

  it("is not issued to a page another site embeds, nor to any request another site sends", async () => {
    const embedded = await loadPage({ "sec-fetch-site": "cross-site", "sec-fetch-dest": "iframe" });
    expect(embedded.setCookie).toBeNull();
    // A cross-site form POST to any route, a 404 included, is refused before any cookie is made.
    for (const path of ["/agent/chat", "/agent/runs/run-x/cancel", "/agent/no-such-route"]) {
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: {
          origin: "http://evil.example",
          "sec-fetch-site": "cross-site",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "a=1",
      });
      expect(response.status, path).toBe(403);
      expect(response.headers.get("set-cookie"), path).toBeNull();
    }
    const image = await fetch(`${server.url}/agent/approvals`, {
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(image.status).toBe(401);
    expect(image.headers.get("set-cookie")).toBeNull();
  });

  it("is issued to the first call of the server's own page or a CORS origin's page, not a bare client", async () => {
    const own = await fetch(`${server.url}/agent/approvals`, {
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(own.headers.get("set-cookie")).toMatch(/^prepick_actor=/);
    const app = await fetch(`${server.url}/agent/approvals`, {
      headers: { origin: APP, "sec-fetch-site": "same-site" },
    });
    expect(app.headers.get("set-cookie")).toMatch(/^prepick_actor=/);
    const bare = await fetch(`${server.url}/agent/approvals`);
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { error: string }).error).toMatch(/names no actor/);
    expect(bare.headers.get("set-cookie")).toBeNull();
  });
});

describe("cross-site request forgery", () => {
  it("refuses a plain form POST from a same-site page to cancel: the run stays parked", async () => {
    const { cookie } = await loadPage();
    const runId = await parkedRunOf(cookie);
    // What a form on http://localhost:8080 sends: the browser attaches the Lax cookie (same site).
    const forged = await fetch(`${server.url}/agent/runs/${runId}/cancel`, {
      method: "POST",
      headers: {
        cookie,
        origin: "http://localhost:8080",
        "sec-fetch-site": "same-site",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({
      error: `POST /agent/runs/${runId}/cancel must come from this server's own pages or an origin in PREPICK_CORS_ORIGINS, not from Origin "http://localhost:8080".`,
    });
    expect((await server.store.runs.get(runId))?.status).toBe("parked");
  });

  it("refuses a form POST that carries no Origin (an older browser) for not being JSON", async () => {
    const { cookie } = await loadPage();
    const runId = await parkedRunOf(cookie);
    for (const type of [
      "application/x-www-form-urlencoded",
      "text/plain",
      "multipart/form-data; boundary=x",
    ]) {
      const forged = await fetch(`${server.url}/agent/runs/${runId}/cancel`, {
        method: "POST",
        headers: { cookie, "content-type": type },
        body: "",
      });
      expect(forged.status, type).toBe(415);
      expect(((await forged.json()) as { error: string }).error).toBe(
        `POST /agent/runs/${runId}/cancel must be sent with content-type: application/json, not ${JSON.stringify(type.split(";")[0])}.`,
      );
    }
    expect((await server.store.runs.get(runId))?.status).toBe("parked");
  });

  it("takes the same cancel from the server's own page and from a CORS origin's page", async () => {
    const { cookie } = await loadPage();
    for (const origin of [server.url, APP]) {
      const runId = await parkedRunOf(cookie);
      const cancelled = await fetch(`${server.url}/agent/runs/${runId}/cancel`, {
        method: "POST",
        headers: { cookie, origin, "content-type": "application/json" },
        body: "{}",
      });
      expect(cancelled.status, origin).toBe(200);
      expect((await server.store.runs.get(runId))?.status).toBe("cancelled");
    }
  });
});

describe("who the actor is", () => {
  it("refuses x-actor-id when the header is turned off, and still knows the cookie", {
    timeout: 60_000,
  }, async () => {
    const strict = await startServer({ agents: [plain], trustActorHeader: false });
    try {
      const claimed = await fetch(`${strict.url}/agent/approvals`, { headers: { "x-actor-id": "ada" } });
      expect(claimed.status).toBe(400);
      expect(await claimed.json()).toEqual({
        error: "x-actor-id is turned off on this server (PREPICK_TRUST_ACTOR_HEADER=false).",
      });
      const first = await fetch(`${strict.url}/agent/approvals`, {
        headers: { "sec-fetch-site": "same-origin" },
      });
      const cookie = first.headers.get("set-cookie")?.split(";")[0] ?? "";
      const again = await fetch(`${strict.url}/agent/approvals`, { headers: { cookie } });
      expect(again.status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it("refuses an authenticate that names nobody: callers with an empty id never share one actor", {
    timeout: 60_000,
  }, async () => {
    const guarded = await startServer({
      agents: [plain],
      authenticate: (request) => request.headers.get("x-user") ?? undefined,
    });
    try {
      for (const user of ["", "   "]) {
        const response = await fetch(`${guarded.url}/agent/approvals`, { headers: { "x-user": user } });
        expect(response.status, JSON.stringify(user)).toBe(401);
      }
      expect((await fetch(`${guarded.url}/agent/approvals`)).status).toBe(401);
      const named = await fetch(`${guarded.url}/agent/approvals`, { headers: { "x-user": "zed" } });
      expect(named.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it("keeps the header working by default, for development and tests", async () => {
    const run = await chat(server, "ada", "Say hello", { agent: "plain" });
    expect(run.status).toBe(200);
  });
});

/** A GET with a `Host` header of our choosing (fetch keeps its own), answered as status and body. */
function getWithHost(url: string, path: string, host: string, headers: Record<string, string> = {}) {
  const target = new URL(url);
  return new Promise<{ status: number; body: string; setCookie: string[] }>((resolve, reject) => {
    const request = httpRequest(
      { host: target.hostname, port: target.port, path, headers: { ...headers, host } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body,
            setCookie: response.headers["set-cookie"] ?? [],
          }),
        );
      },
    );
    request.on("error", reject);
    request.end();
  });
}

describe("the Host a request names", () => {
  it("is refused (421) when it is not a loopback name: a rebound page of another site reaches nothing", async () => {
    const port = new URL(server.url).port;
    const rebound = `rebind.test:${port}`;
    const read = await getWithHost(server.url, "/agent/approvals", rebound, {
      "x-actor-id": "ada",
      origin: `http://${rebound}`,
    });
    expect(read.status).toBe(421);
    expect(JSON.parse(read.body)).toMatchObject({ field: "Host", value: rebound });
    expect(JSON.parse(read.body).error).toContain(`Host "${rebound}" is not a name this server answers`);
    const page = await getWithHost(server.url, "/", rebound, NAVIGATION);
    expect(page.status).toBe(421);
    expect(page.setCookie).toEqual([]);
    for (const name of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`, `[::1]:${port}`]) {
      expect(
        (await getWithHost(server.url, "/agent/approvals", name, { "x-actor-id": "ada" })).status,
        name,
      ).toBe(200);
    }
  });

  it("answers the hosts an operator lists, and only those besides loopback names", async () => {
    const listed = await startServer({ agents: [plain], allowedHosts: ["prepick.example.com"] });
    try {
      const port = new URL(listed.url).port;
      const ok = await getWithHost(listed.url, "/agent/agents", `prepick.example.com:${port}`, {
        "x-actor-id": "ada",
      });
      expect(ok.status).toBe(200);
      const other = await getWithHost(listed.url, "/agent/agents", "evil.example.com", {
        "x-actor-id": "ada",
      });
      expect(other.status).toBe(421);
    } finally {
      await listed.close();
    }
    expect(() => parseAllowedHosts("https://app.example.com")).toThrow(
      /PREPICK_ALLOWED_HOSTS must list host names/,
    );
    expect(() => parseAllowedHosts("app.example.com:443")).toThrow(/PREPICK_ALLOWED_HOSTS/);
    expect(parseAllowedHosts(" App.Example.com., [::1] ")).toEqual(["app.example.com", "[::1]"]);
  });
});

describe("more than one actor cookie", () => {
  it("is refused naming the cookie: a cookie set from another port of the host cannot take over", async () => {
    const victim = (await loadPage()).cookie;
    const runId = await parkedRunOf(victim);
    const attacker = (await loadPage()).cookie;
    // The other port's cookie has the longer path, /agent, so the browser sends it first.
    const both = await fetch(`${server.url}/agent/runs/${runId}/checkpoints`, {
      headers: { cookie: `${attacker}; ${victim}`, "sec-fetch-site": "same-origin" },
    });
    expect(both.status).toBe(400);
    const body = (await both.json()) as { error: string; field: string; value: string };
    expect(body).toMatchObject({ field: "cookie", value: "prepick_actor" });
    expect(body.error).toContain("carries 2 prepick_actor cookies");
    const sent = await fetch(`${server.url}/agent/chat`, {
      method: "POST",
      headers: {
        cookie: `${attacker}; ${victim}`,
        "content-type": "application/json",
        origin: server.url,
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify({ message: { role: "user", parts: [{ type: "text", text: "Secret plans" }] } }),
    });
    expect(sent.status).toBe(400);
    await sent.text();
    expect(sent.headers.get("set-cookie")).toBeNull();
    // Alone, each cookie is its own actor, as before.
    const own = await fetch(`${server.url}/agent/runs/${runId}/checkpoints`, { headers: { cookie: victim } });
    expect(own.status).toBe(200);
    const foreign = await fetch(`${server.url}/agent/runs/${runId}/checkpoints`, {
      headers: { cookie: attacker },
    });
    expect(foreign.status).toBe(404);
  });
});
