import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = new URL(".", import.meta.url).pathname;
const modules = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? modules(join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")
        ? [relative(SRC, join(dir, e.name))]
        : [],
  );
const reExports = (entry: string) =>
  new Set(
    [...readFileSync(join(SRC, entry), "utf8").matchAll(/export \* from "\.\/(.+)\.js";/g)].map((m) => `${m[1]}.ts`),
  );

describe("@kusd/core's entries", () => {
  it("index.ts re-exports every module but the fixtures, and fixtures.ts every fixture", () => {
    const all = modules(SRC).filter((m) => m !== "index.ts" && m !== "fixtures.ts");
    const fixtures = all.filter((m) => m.includes("fixture"));
    expect([...reExports("index.ts")].sort()).toEqual(all.filter((m) => !fixtures.includes(m)).sort());
    expect([...reExports("fixtures.ts")].sort()).toEqual(fixtures.sort());
  });
});
