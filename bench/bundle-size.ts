import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { type BenchRow, figure } from "./result";

const run = promisify(execFile);

/** The peer dependencies a user already has; neither bundle counts them. */
const PEERS = ["react", "react-dom", "react/*", "ai", "@ai-sdk/react", "zod", "zod/*", "@radix-ui/*"];

/** The measured version of the comparison package. */
const SHADCN_REACT = "@shadcn/react@0.3.1";

const TARGET_KB = 12;

/** The two largest third-party inputs (the linear-time pattern engine, the class merger). */
const OWN_CODE_ONLY = ["re2js", "tailwind-merge"];

/** Minified, then gzipped, size in kB of one entry bundled without the peers (and `alsoLeaveOut`). */
async function gzippedSize(
  entry: { contents: string; resolveDir: string },
  alsoLeaveOut: readonly string[] = [],
): Promise<number> {
  const result = await build({
    stdin: { contents: entry.contents, resolveDir: entry.resolveDir, loader: "tsx" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    external: [...PEERS, ...alsoLeaveOut],
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return gzipSync(code, { level: 9 }).byteLength / 1000;
}

/** The questionnaire module of `@shadcn/react`, fetched with `npm pack`; undefined if it cannot be. */
async function shadcnQuestionnaire(): Promise<number | undefined> {
  const folder = await mkdtemp(join(tmpdir(), "prepick-bench-shadcn-"));
  try {
    const { stdout } = await run("npm", ["pack", SHADCN_REACT, "--silent"], { cwd: folder, timeout: 60_000 });
    const tarball = stdout.trim().split("\n").at(-1) ?? "";
    await run("tar", ["xzf", tarball], { cwd: folder });
    return await gzippedSize({
      contents: 'export * from "./package/dist/questionnaire/index.js";',
      resolveDir: folder,
    });
  } catch {
    return undefined;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * ChatElicitation with the hook, the transport and the core as a user's app would ship them:
 * bundled, minified and gzipped, without the peers.
 */
export async function bundleSize(): Promise<BenchRow[]> {
  const entry = {
    contents: [
      'export { ChatElicitation } from "./src/components/chat-elicitation";',
      'export { useChatTranscript } from "./src/hooks/use-chat-transcript";',
      'export { AgentChatTransport } from "./src/transport/agent-chat-transport";',
    ].join("\n"),
    resolveDir: process.cwd(),
  };
  const ours = await gzippedSize(entry);
  const ownCode = await gzippedSize(entry, OWN_CODE_ONLY);
  const theirs = await shadcnQuestionnaire();
  const shipped: BenchRow = {
    metric: "Size: ChatElicitation + hook + transport + core (min + gzip, no peers)",
    baseline:
      theirs === undefined
        ? `${SHADCN_REACT} questionnaire: could not be fetched here`
        : `${figure(theirs, "kB")} (${SHADCN_REACT} questionnaire, same measure)`,
    ours: figure(ours, "kB"),
    ratio: theirs === undefined ? "—" : figure(ours / theirs, "×"),
    target: `≤ ${TARGET_KB} kB`,
    pass: ours <= TARGET_KB,
  };
  return [
    shipped,
    {
      metric: `Size of the same, leaving out ${OWN_CODE_ONLY.join(" and ")} (our own code)`,
      baseline: "—",
      ours: figure(ownCode, "kB"),
      ratio: "—",
      target: "—",
      pass: "reported",
    },
  ];
}
