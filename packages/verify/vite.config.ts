/**
 * The package's build for `npm pack` (prepack): the TypeScript sources, and the pure core they
 * import from the repository, bundled into dist/ as ES modules for Node.js; viem, zod and
 * @ethereumjs/* stay dependencies. Inside the repository nothing is built: the sources run.
 */
import { defineConfig } from "vite";

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
      input: { index: "src/index.ts", node: "src/node.ts", cli: "src/cli/main.ts" },
      external: [/^viem(\/|$)/, /^zod(\/|$)/, /^@ethereumjs\//, /^node:/],
      output: { format: "es", entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" },
    },
  },
});
