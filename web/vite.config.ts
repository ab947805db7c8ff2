/**
 * The reserves page: Preact + uPlot, bundled by Vite into web/dist, which the API serves at `/`.
 * Nothing is loaded from elsewhere at run time (no CDN, no web fonts): it works offline.
 */
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/**
 * The page's stylesheet (a few KB) goes into the HTML as a <style>: no request blocks the first
 * paint. The CSP allows inline styles ('unsafe-inline' in style-src, for uPlot and Preact).
 */
function inlineCss(): Plugin {
  return {
    name: "kusd-inline-css",
    apply: "build",
    enforce: "post",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const bundle = ctx.bundle ?? {};
        return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = bundle[file];
          if (asset?.type !== "asset") return tag;
          delete bundle[file];
          return `<style>${String(asset.source)}</style>`;
        });
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  logLevel: "warn",
  plugins: [inlineCss()],
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // The verifier runs in a module worker (web/src/verify-worker.ts); CSP: worker-src falls back to script-src 'self'.
  worker: { format: "es" },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 600 },
});
