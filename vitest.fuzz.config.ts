import { defineConfig } from "vitest/config";

// `npm run test:fuzz`: property-based fuzzing of the running stack (one devnet and indexer).
export default defineConfig({
  test: {
    include: ["test/fuzz/**/*.test.ts"],
    globalSetup: ["test/setup/stack.ts"],
    testTimeout: 900_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: false,
  },
});
