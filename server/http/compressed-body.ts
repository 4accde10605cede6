import { readFile, stat } from "node:fs/promises";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encodings a static text file is sent in, best first. */
export type ContentEncoding = "br" | "gzip";

/** Below this many bytes a compressed body saves less than its headers cost. */
const MIN_BYTES = 1024;

/** The content types worth compressing: text, JSON, JavaScript, SVG (images and fonts are compressed already). */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript)|image\/svg\+xml)/;

/**
 * Which encoding to send for `accept` (a request's `Accept-Encoding`): brotli when the browser
 * takes it (every current one does over HTTP and HTTPS), else gzip, else none. A `q=0` refuses.
 */
export function chooseEncoding(accept: string | undefined): ContentEncoding | undefined {
  const offered = new Map<string, number>();
  for (const part of (accept ?? "").split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    offered.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const takes = (name: ContentEncoding) => (offered.get(name) ?? offered.get("*") ?? 0) > 0;
  if (takes("br")) return "br";
  if (takes("gzip")) return "gzip";
  return undefined;
}

/** Whether a body of `type` and `size` bytes is worth compressing. */
export function compressible(type: string, size: number): boolean {
  return size >= MIN_BYTES && COMPRESSIBLE.test(type);
}

/** The file name suffix of a copy compressed ahead of time, per encoding. */
const SUFFIX: Record<ContentEncoding, string> = { br: ".br", gzip: ".gz" };

/** `body` compressed at a quick setting (brotli 5 is within a few percent of its best at 1/30 the time). */
function compressNow(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === "br"
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level: 6 });
}

/** The copy compressed ahead of time beside `path` (`app.js.br`), when it is as new as the file. */
async function precompressed(path: string, mtimeMs: number, encoding: ContentEncoding) {
  try {
    const copy = `${path}${SUFFIX[encoding]}`;
    if ((await stat(copy)).mtimeMs < mtimeMs) return undefined;
    return await readFile(copy);
  } catch {
    return undefined;
  }
}

/**
 * Compressed copies of the static files, made once per file version and encoding and kept: the
 * demo's files change only with a new build, so each costs one compression for the server's life.
 * A copy the build compressed ahead of time at the best setting (`app.js.br`, `app.js.gz` beside
 * the file) is sent as it is; other files are compressed at a quick setting on their first request.
 */
export class CompressedBodies {
  /** By encoding and file path: the version compressed (a rebuilt file replaces its old copy). */
  private readonly cache = new Map<string, { version: string; body: Promise<Uint8Array<ArrayBuffer>> }>();

  /** The file at `path` (modified at `mtimeMs`) in `encoding`; `version` names its content. */
  get(
    path: string,
    mtimeMs: number,
    version: string,
    body: Buffer,
    encoding: ContentEncoding,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const key = `${encoding} ${path}`;
    const cached = this.cache.get(key);
    if (cached?.version === version) return cached.body;
    // Kept as a body a Response takes as it is.
    const compressed = precompressed(path, mtimeMs, encoding)
      .then((ready) => ready ?? compressNow(body, encoding))
      .then((bytes) => new Uint8Array(bytes));
    // A failed compression is not kept: the next request tries again.
    compressed.catch(() => {
      if (this.cache.get(key)?.body === compressed) this.cache.delete(key);
    });
    this.cache.set(key, { version, body: compressed });
    return compressed;
  }
}
