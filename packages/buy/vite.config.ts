/**
 * The package's build for `npm pack` (prepack): the TypeScript sources, and the pure core they
 * import from the repository (@kusd/core), bundled into dist/ as ES modules for Node.js; every
 * package.json dependency and node: built-in stays an import. Inside the repository nothing is
 * built: the sources run.
 */
import { readFileSync } from "node:fs";
import { defineConfig } from "vite";

const { dependencies } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
};
const installed = Object.keys(dependencies);
/** A dependency stays an import; a package the repository does not publish (@kusd/*) is bundled. */
function external(id: string): boolean {
  if (id.startsWith("node:") || installed.some((d) => id === d || id.startsWith(`${d}/`))) return true;
  // Anything else from node_modules would be missing where the package is installed alone.
  if (/^[@a-z]/i.test(id) && !id.startsWith("@kusd/")) throw new Error(`${id} is imported: add it to dependencies`);
  return false;
}

export default defineConfig({
  logLevel: "warn",
  build: {
    ssr: true,
    target: "node20",
    outDir: "dist",
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    rollupOptions: {
      input: { main: "src/main.ts", index: "src/index.ts" },
      external,
      output: { format: "es", entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" },
    },
  },
});
