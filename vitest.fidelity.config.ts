import { defineConfig } from "vitest/config";

// `npm run test:fidelity` only: the differential test against ../shared's operator sources.
export default defineConfig({
  test: {
    include: ["test/fidelity/**/*.test.ts"],
    // Cold viaIR compiles of eight bundles plus a few hundred lockstep steps.
    testTimeout: 30 * 60_000,
    pool: "forks",
    // One file at a time: the second that compiles the operator's bundles finds them in the cache.
    fileParallelism: false,
  },
});
