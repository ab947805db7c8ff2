import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache, keyed by
    // each file's content and the configuration): a rerun of the unit suite skips most of its
    // transform and import time.
    experimental: { fsModuleCache: true },
    projects: [
      {
        // Pure domain rules beside their modules: no devnet.
        test: {
          name: "unit",
          include: [
            "api/**/*.test.ts",
            "clients/**/*.test.ts",
            // The devnet's pure parts (the proposal cadence, the proof contracts' interface against Base's).
            "devnet/**/*.test.ts",
            "packages/*/src/**/*.test.ts",
            "src/**/*.test.ts",
            "web/src/**/*.test.ts",
            // The API's published contracts, linted and checked against the server in process.
            "scripts/**/*.test.ts",
          ],
          // One module graph for all files of a worker: isolated, each file re-imported zod, viem,
          // hono... (about 20 s of a 24 s run on 2 cores; 4 s without). So a unit test leaves no
          // global state behind: no vi.mock, stubbed env or globals, unrestored spies or timers.
          isolate: false,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/**/*.test.ts"],
          // The differential test needs ../shared and runs only through `npm run test:fidelity`.
          // The fuzz suite runs once, through `npm run test:fuzz`; the browser suite through `npm run test:browser`.
          exclude: [...configDefaults.exclude, "test/fidelity/**", "test/fuzz/**", "test/browser/**"],
          // One devnet and one indexer over it for the whole run, on free ports.
          globalSetup: ["test/setup/stack.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          pool: "forks",
          // Files share one devnet, and some mine, snapshot and revert it (reorg tests): run files
          // one at a time so no test sees another's reorg.
          fileParallelism: false,
          // One module graph for the whole run, as in the unit project: a fresh fork per file
          // re-imported viem, zod, hono and the API for each of 130 files (107 s of a CI pass).
          // A test leaves no global state behind (the same rules as the unit project's).
          isolate: false,
        },
      },
    ],
  },
});
