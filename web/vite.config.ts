/**
 * The reserves page: Preact + uPlot, bundled by Vite into web/dist, which the API serves at `/`.
 * Nothing is loaded from elsewhere at run time (no CDN, no web fonts): it works offline.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 600 },
});
