import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import * as ponderSchema from "../../ponder.schema.js";
import { importBundled } from "./bundle.js";

const dir = mkdtempSync(join(tmpdir(), "kusd-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("importBundled", () => {
  it("gives the bundle's imports of ponder.schema.ts the tables Ponder hands over, not a copy", async () => {
    const psmSwap = { handedOver: true };
    const m = await importBundled<typeof import("./bundle.fixture.js")>(
      "./bundle.fixture.ts",
      { psmSwap, other: 1 },
      dir,
    );
    expect(m.table).toBe(psmSwap);
    // Loaded by Node from one file of the cache, content-addressed; the same code is one file.
    expect(m.where).toMatch(new RegExp(`^file://${dir}/api-[0-9a-f]{16}\\.mjs$`));
    await importBundled("./bundle.fixture.ts", { psmSwap, other: 1 }, dir);
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it("fails, for the entry to fall back on, when a module imports what Ponder's schema lacks", async () => {
    await expect(importBundled("./bundle.fixture.ts", { other: 1 }, dir)).rejects.toThrow(/psmSwap/);
  });

  it("bundles and loads the service itself, the workspace's TypeScript packages included", async () => {
    // Were it to fail, the entry would fall back to vite-node, silently: 4.5 s more per start and
    // a 600 MB heap peak while it transforms (it did, from the move to workspaces until this test).
    // Under node_modules, as the real cache is: the bundle's packages resolve from there.
    const cache = fileURLToPath(new URL("../../node_modules/.cache/", import.meta.url));
    mkdirSync(cache, { recursive: true });
    const inRepo = mkdtempSync(join(cache, "kusd-bundle-test-"));
    try {
      const m = await importBundled<typeof import("./app.js")>("./app.ts", { ...ponderSchema }, inRepo);
      expect(typeof m.createPonderApi).toBe("function");
    } finally {
      rmSync(inRepo, { recursive: true, force: true });
    }
  }, 60_000);
});
