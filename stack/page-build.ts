/**
 * Builds the reserves page (web/) into web/dist with Vite. Under a second, so `npm start` and
 * the test setup build it every time rather than judge whether the last build is stale.
 */
import { fileURLToPath } from "node:url";
import { build } from "vite";

export const PAGE_CONFIG = fileURLToPath(new URL("../web/vite.config.ts", import.meta.url));
export const PAGE_DIR = fileURLToPath(new URL("../web/dist", import.meta.url));

export async function buildPage(): Promise<string> {
  await build({ configFile: PAGE_CONFIG, logLevel: "warn" });
  return PAGE_DIR;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPage();
  console.log(`reserves page built into ${PAGE_DIR}`);
}
