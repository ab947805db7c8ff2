/**
 * Builds the reserves page (web/) into web/dist (or `KUSD_PAGE_DIR`) with Vite. Under a second, so `npm start` and
 * the test setup build it every time rather than judge whether the last build is stale.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "vite";

export const PAGE_CONFIG = fileURLToPath(new URL("../web/vite.config.ts", import.meta.url));
export const PAGE_DIR = fileURLToPath(new URL("../web/dist", import.meta.url));

/** Builds the page into `outDir` (default web/dist): a test builds into a folder of its own. */
export async function buildPage(outDir: string = PAGE_DIR): Promise<string> {
  await build({ configFile: PAGE_CONFIG, logLevel: "warn", build: { outDir, emptyOutDir: true } });
  precompress(outDir);
  return outDir;
}

/** Files worth compressing: text the browser decodes (the bundles, styles, the HTML). */
const TEXT = /\.(html|js|mjs|css|svg|json|txt)$/;

/**
 * Brotli (best quality) and gzip copies beside each text file of 1 KB or more, made once at build
 * time: api/http/page.ts serves `name.br` or `name.gz` as the browser accepts, so the page's
 * bytes are compressed at their smallest without any CPU per request.
 */
export function precompress(dir: string): void {
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (!TEXT.test(name) || !statSync(path).isFile()) continue;
    const bytes = readFileSync(path);
    if (bytes.byteLength < 1024) continue;
    writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPage();
  console.log(`reserves page built into ${PAGE_DIR}`);
}
