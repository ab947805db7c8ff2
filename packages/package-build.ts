/**
 * The build of a client package for `npm pack` (its prepack): its TypeScript sources, and what
 * they import from the repository's unpublished packages (@kusd/*), bundled into dist/ as ES
 * modules for Node.js; every dependency its package.json names and every node: built-in stays an
 * import. Inside the repository nothing is built: the sources run.
 */
import { readFileSync } from "node:fs";
import { defineConfig, type UserConfig } from "vite";

/** `packageJson`: the package's package.json (a URL beside its vite.config.ts); `input`: its entries. */
export function packageBuild(packageJson: URL, input: Record<string, string>): UserConfig {
  const { dependencies } = JSON.parse(readFileSync(packageJson, "utf8")) as { dependencies: Record<string, string> };
  const installed = Object.keys(dependencies);
  /** A dependency stays an import; a package the repository does not publish (@kusd/*) is bundled. */
  const external = (id: string): boolean => {
    if (id.startsWith("node:") || installed.some((d) => id === d || id.startsWith(`${d}/`))) return true;
    // Anything else from node_modules would be missing where the package is installed alone.
    if (/^[@a-z]/i.test(id) && !id.startsWith("@kusd/")) throw new Error(`${id} is imported: add it to dependencies`);
    return false;
  };
  return defineConfig({
    logLevel: "warn",
    build: {
      ssr: true,
      target: "node20",
      outDir: "dist",
      emptyOutDir: true,
      minify: false,
      sourcemap: true,
      rollupOptions: {
        input,
        external,
        output: { format: "es", entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" },
      },
    },
  });
}
