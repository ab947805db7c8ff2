import { defineConfig } from "vitest/config";

// `npm run test:browser`: the reserves page in Debian's Chromium driven by Playwright, against
// one devnet and indexer of its own. Apart from `npm test`, which must pass without a browser.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    globalSetup: ["test/setup/stack.ts"],
    testTimeout: 90_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: false,
  },
});
