import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { holderDead, holderFile, ponderRunning, readHolder } from "./holder-file.js";

const dir = join(mkdtempSync(join(tmpdir(), "kusd-holder-")), "pglite");
afterAll(() => rmSync(dirname(dir), { recursive: true, force: true }));

describe("the PGlite schema holder", () => {
  it("a holder of this machine whose process is gone is dead; a running one or another machine's is not", () => {
    const h = { pid: 4242, host: hostname(), schema: "s" };
    expect(holderDead(h, () => false)).toBe(true);
    expect(holderDead(h, () => true)).toBe(false);
    expect(holderDead({ ...h, host: "another-machine" }, () => false)).toBe(false);
  });
  it("this test's own process is not a ponder process; pid 1 is not either", () => {
    // vitest's worker runs no `ponder`: a pid reused by another program does not hold the schema.
    expect(ponderRunning(process.pid)).toBe(false);
    expect(ponderRunning(2 ** 22 + 1)).toBe(false);
  });
  it("reads the file it writes, and nothing it cannot parse", () => {
    expect(readHolder(dir)).toBeNull();
    writeFileSync(holderFile(dir), JSON.stringify({ pid: 7, host: "h", schema: "s" }));
    expect(readHolder(dir)).toEqual({ pid: 7, host: "h", schema: "s" });
    writeFileSync(holderFile(dir), "{");
    expect(readHolder(dir)).toBeNull();
  });
});
