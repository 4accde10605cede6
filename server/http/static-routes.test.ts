import { mkdir, utimes, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrepickServer } from "../server";
import { startServer, tempDataDir } from "../testing/harness";
import { plain } from "../testing/test-agents";

// The demo's files as the reference server sends them: compressed text, and caching by name.

let server: PrepickServer;
let folder: { path: string; remove: () => Promise<void> };

/** A script large enough to compress, as a build writes one. */
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`;

beforeAll(async () => {
  folder = await tempDataDir();
  const demo = join(folder.path, "demo");
  await mkdir(join(demo, "assets"), { recursive: true });
  await writeFile(join(demo, "index.html"), `<!doctype html><title>Demo</title>${"<p>text</p>".repeat(200)}`);
  await writeFile(join(demo, "assets", "app-1a2b3c.js"), SCRIPT);
  // A copy the build compressed ahead of time, told apart from one made on the fly by its content.
  await writeFile(join(demo, "assets", "built-4d5e6f.js"), SCRIPT);
  await writeFile(join(demo, "assets", "built-4d5e6f.js.br"), brotliCompressSync("// precompressed\n"));
  await writeFile(join(demo, "assets", "tiny-7a8b9c.js"), "export {};\n");
  await writeFile(join(demo, "assets", "stale-0a0b0c.js"), SCRIPT);
  await writeFile(join(demo, "assets", "stale-0a0b0c.js.br"), brotliCompressSync("// old build\n"));
  // The compressed copy is older than its file: a rebuild replaced the file, so the copy is not sent.
  const past = new Date(Date.now() - 60_000);
  await utimes(join(demo, "assets", "stale-0a0b0c.js.br"), past, past);
  server = await startServer({ agents: [plain], demoDir: demo, registryDir: join(folder.path, "r") });
}, 60_000);

afterAll(async () => {
  await server.close();
  await folder.remove();
}, 60_000);

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decode the body). */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const outgoing = request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("static files", () => {
  it("sends a script brotli-compressed to a browser that takes it, gzip to one that takes only gzip, and as it is otherwise", async () => {
    const br = await get("/assets/app-1a2b3c.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("accept-encoding");
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 3);

    const gzip = await get("/assets/app-1a2b3c.js", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);

    for (const accept of [undefined, "identity", "br;q=0, gzip;q=0"]) {
      const plain = await get("/assets/app-1a2b3c.js", accept ? { "accept-encoding": accept } : {});
      expect(plain.headers["content-encoding"], String(accept)).toBeUndefined();
      expect(plain.body.toString(), String(accept)).toBe(SCRIPT);
    }
  });

  it("sends a copy the build compressed ahead of time as it is, unless it is older than its file", async () => {
    const built = await get("/assets/built-4d5e6f.js", { "accept-encoding": "br" });
    expect(brotliDecompressSync(built.body).toString()).toBe("// precompressed\n");
    const stale = await get("/assets/stale-0a0b0c.js", { "accept-encoding": "br" });
    expect(brotliDecompressSync(stale.body).toString()).toBe(SCRIPT);
  });

  it("leaves a file under 1 KiB as it is", async () => {
    const tiny = await get("/assets/tiny-7a8b9c.js", { "accept-encoding": "br" });
    expect(tiny.headers["content-encoding"]).toBeUndefined();
    expect(tiny.body.toString()).toBe("export {};\n");
  });

  it("lets the browser keep hashed assets a year, and revalidate the page, with a 304 while it is current", async () => {
    const asset = await get("/assets/app-1a2b3c.js", { "accept-encoding": "br" });
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const page = await get("/", { "accept-encoding": "br" });
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("br");
    expect(page.headers["cache-control"]).toBe("no-cache");
    const etag = String(page.headers.etag);
    expect(etag).toMatch(/^W\/".+-br"$/);

    const again = await get("/", { "accept-encoding": "br", "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // The gzip copy is another representation: the brotli copy's tag does not validate it.
    const other = await get("/", { "accept-encoding": "gzip", "if-none-match": etag });
    expect(other.status).toBe(200);
    expect(other.headers["content-encoding"]).toBe("gzip");
  });

  it("keeps the page's security headers on a compressed response", async () => {
    const page = await get("/", { "accept-encoding": "br" });
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(String(page.headers["content-security-policy"])).toContain("script-src 'self'");
  });
});
