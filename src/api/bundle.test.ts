import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
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
});
