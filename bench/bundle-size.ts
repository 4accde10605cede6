import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { type BenchRow, figure } from "./result";

const run = promisify(execFile);

/**
 * What a user's app already has; no bundle counts it. React, the AI SDK, zod and Radix are peer
 * dependencies. `@/lib/utils` (`cn`, built on clsx and tailwind-merge) is written by `shadcn init`
 * in every shadcn app, and class-variance-authority comes with shadcn's button: the app's own
 * utilities, not ours.
 */
const PEERS = [
  "react",
  "react-dom",
  "react/*",
  "ai",
  "@ai-sdk/react",
  "zod",
  "zod/*",
  "@radix-ui/*",
  "@/lib/utils",
  "clsx",
  "tailwind-merge",
  "class-variance-authority",
];

/** The measured version of the comparison package. */
const SHADCN_REACT = "@shadcn/react@0.3.1";

const TARGET_KB = 12;

/** A bundle's gzipped sizes in kB: what a page loads up front, and each chunk it loads on first need. */
interface BundleSizes {
  /** The entry chunk and every chunk it imports statically. */
  upFront: number;
  /** The chunks only a dynamic `import()` reaches, each named by its largest input. */
  lazy: { name: string; size: number }[];
}

/** The name a chunk is known by: the package (or file) that makes up most of it. */
function chunkName(output: Metafile["outputs"][string]): string {
  const [largest] = Object.entries(output.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  const input = largest?.[0] ?? "?";
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input;
}

/**
 * One entry bundled without the peers, split into chunks, minified; each chunk gzipped. The chunks
 * the entry imports statically load with it; the ones only `import()` reaches load on first need.
 */
async function bundleSizes(entry: { contents: string; resolveDir: string }): Promise<BundleSizes> {
  const outdir = join(tmpdir(), "prepick-bench-size");
  const result = await build({
    stdin: { contents: entry.contents, resolveDir: entry.resolveDir, loader: "tsx" },
    bundle: true,
    splitting: true,
    outdir,
    metafile: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    external: PEERS,
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const gzipped = new Map(
    result.outputFiles.map((file) => [file.path, gzipSync(file.contents, { level: 9 }).byteLength / 1000]),
  );
  const outputs = result.metafile.outputs;
  const sizeOf = (path: string) => gzipped.get(resolve(path)) ?? 0;
  const upFront = new Set<string>();
  const visit = (path: string) => {
    if (upFront.has(path)) return;
    upFront.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
    }
  };
  // A chunk that only `import()` reaches is an entry point too; the page's own entry is the stdin one.
  for (const [path, output] of Object.entries(outputs)) if (output.entryPoint === "<stdin>") visit(path);
  return {
    upFront: [...upFront].reduce((sum, path) => sum + sizeOf(path), 0),
    lazy: Object.entries(outputs)
      .filter(([path]) => !upFront.has(path) && path.endsWith(".js"))
      .map(([path, output]) => ({ name: chunkName(output), size: sizeOf(path) })),
  };
}

/** The questionnaire module of `@shadcn/react`, fetched with `npm pack`; undefined if it cannot be. */
async function shadcnQuestionnaire(): Promise<BundleSizes | undefined> {
  const folder = await mkdtemp(join(tmpdir(), "prepick-bench-shadcn-"));
  try {
    const { stdout } = await run("npm", ["pack", SHADCN_REACT, "--silent"], { cwd: folder, timeout: 60_000 });
    const tarball = stdout.trim().split("\n").at(-1) ?? "";
    await run("tar", ["xzf", tarball], { cwd: folder });
    return await bundleSizes({
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
 * bundled, minified and gzipped, without the peers. The figure is what a page loads before any
 * question with a pattern appears; the pattern engine it fetches then is its own row.
 */
export async function bundleSize(): Promise<BenchRow[]> {
  const ours = await bundleSizes({
    contents: [
      'export { ChatElicitation } from "./src/components/chat-elicitation";',
      'export { useChatTranscript } from "./src/hooks/use-chat-transcript";',
      'export { AgentChatTransport } from "./src/transport/agent-chat-transport";',
    ].join("\n"),
    resolveDir: process.cwd(),
  });
  const theirs = (await shadcnQuestionnaire())?.upFront;
  const shipped: BenchRow = {
    id: "size.up-front",
    metric: "Size: ChatElicitation + hook + transport + core, loaded up front (min + gzip, no peers)",
    baseline:
      theirs === undefined
        ? `${SHADCN_REACT} questionnaire: could not be fetched here`
        : `${figure(theirs, "kB")} (${SHADCN_REACT} questionnaire, same measure)`,
    ours: figure(ours.upFront, "kB"),
    ratio: theirs === undefined ? "—" : figure(ours.upFront / theirs, "×"),
    target: `≤ ${TARGET_KB} kB`,
    pass: ours.upFront <= TARGET_KB,
  };
  return [
    shipped,
    {
      id: "size.on-first-need",
      metric: "Size of the same, loaded on first need (the pattern engine, for a question with a pattern)",
      baseline: "—",
      ours:
        ours.lazy.length === 0
          ? "nothing"
          : ours.lazy.map((chunk) => `${figure(chunk.size, "kB")} (${chunk.name})`).join(" + "),
      ratio: "—",
      target: "—",
      pass: "reported",
    },
  ];
}
