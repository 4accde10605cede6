import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The built files worth compressing: text the browser fetches, not images or fonts. */
const TEXT = /\.(js|css|html|svg|json)$/;

/**
 * Writes a brotli (`.br`, best quality) and a gzip (`.gz`) copy beside every built text file of
 * 1 KiB or more, once per build: the reference server sends them as they are, where compressing a
 * large script at brotli's best on its first request would take seconds.
 */
export function precompress(): Plugin {
  return {
    name: "prepick-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? "";
      const files = Object.keys(bundle).filter((name) => TEXT.test(name));
      await Promise.all(
        files.map(async (name) => {
          const path = join(outDir, name);
          const body = await readFile(path);
          if (body.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(body, {
              params: {
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
            gzipAsync(body, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
        }),
      );
    },
  };
}
