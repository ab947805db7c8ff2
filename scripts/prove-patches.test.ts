/**
 * Every diff hunk of patches/*.patch belongs to exactly one change of patches/changes.ts, which
 * names tests that exist, and patches/README.md maps every hunk and every change: a hunk added
 * without its proof fails `npm test`. (`npm run test:patches` runs the proofs themselves.)
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { changes } from "../patches/changes.js";
import { lineCount, parsePatch, patchFiles, readHunks } from "./patch-hunks.js";

const root = resolve(import.meta.dirname, "..");
const patches = join(root, "patches");
const hunks = readHunks(patches);
const readme = readFileSync(join(patches, "README.md"), "utf8");

describe("patches/: every hunk proven", () => {
  it("reads the patch files' hunks", () => {
    expect(hunks.length).toBeGreaterThan(0);
    const text =
      "diff --git a/node_modules/p/a.js b/node_modules/p/a.js\nindex 1..2 100644\n--- a/node_modules/p/a.js\n+++ b/node_modules/p/a.js\n@@ -3,2 +3,3 @@ f\n a\n+b\n-c\n d\n";
    const [h] = parsePatch("p+1.0.0.patch", text);
    expect(h).toMatchObject({ key: "p/a.js@-3", file: "p/a.js", added: 1, removed: 1 });
    expect(lineCount(text)).toBe(9);
  });

  it("maps each hunk to exactly one change, and each change's hunks exist", () => {
    const owners = new Map<string, string[]>();
    for (const c of changes) for (const k of c.hunks) owners.set(k, [...(owners.get(k) ?? []), c.id]);
    const keys = new Set(hunks.map((h) => h.key));
    expect(keys.size, "no two hunks share a name").toBe(hunks.length);
    expect(
      hunks.filter((h) => owners.get(h.key)?.length !== 1).map((h) => `${h.key}: ${owners.get(h.key) ?? "no change"}`),
    ).toEqual([]);
    expect(
      [...owners.keys()].filter((k) => !keys.has(k)),
      "hunks no patch file has",
    ).toEqual([]);
    expect(new Set(changes.map((c) => c.id)).size).toBe(changes.length);
  });

  it("names tests that exist, each change at least one", () => {
    for (const c of changes) {
      expect(c.tests.length, c.id).toBeGreaterThan(0);
      for (const t of c.tests) {
        expect(existsSync(join(root, t.file)), `${c.id}: ${t.file}`).toBe(true);
        expect(readFileSync(join(root, t.file), "utf8"), `${c.id}: "${t.name}" in ${t.file}`).toContain(
          JSON.stringify(t.name).slice(1, -1),
        );
        expect(t.project === "e2e").toBe(t.file.startsWith("test/"));
      }
    }
  });

  it("patches/README.md maps every hunk to its change and tells each change's test", () => {
    for (const c of changes) {
      expect(readme, `change ${c.id}`).toContain(`\`${c.id}\``);
      for (const k of c.hunks) expect(readme, `hunk ${k}`).toContain(`\`${k}\``);
    }
    for (const f of patchFiles(patches)) expect(readme).toContain(f);
  });
});
