import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, PARAMETER_CODE, statusOf, withErrorCodeTable } from "./error-codes.js";

const root = new URL("../../", import.meta.url).pathname;
/** The API's and the domain's sources (not tests): where codes are raised. */
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")
        ? [join(dir, e.name)]
        : [],
  );
const code = Object.fromEntries(
  ["api", "packages/core/src", "packages/config/src"]
    .flatMap(sources)
    .map((f) => [f, readFileSync(join(root, f), "utf8")]),
) as Record<string, string>;

describe("the error-code catalogue", () => {
  it("docs/api.md's table is the catalogue's", () => {
    const doc = readFileSync(join(root, "docs/api.md"), "utf8");
    expect(withErrorCodeTable(doc), "run npm run gen:api-contracts and commit docs/api.md").toBe(doc);
  });

  it("every catalogued code is raised somewhere, with an error status", () => {
    for (const [name, entry] of Object.entries(ERROR_CODES)) {
      expect(entry.status, name).toBeGreaterThanOrEqual(400);
      const raisedBy = Object.entries(code).filter(
        ([file, text]) => !file.endsWith("error-codes.ts") && text.includes(`"${name}"`),
      );
      expect(raisedBy.length, `${name} is raised nowhere: drop it from the catalogue`).toBeGreaterThan(0);
    }
  });

  it("an answer built by hand (errorBody with its own status) uses its code's catalogued status", () => {
    const handMade = /errorBody\(\s*"(\w+)"[\s\S]*?\)\s*,\s*(\d{3})\b/g;
    let checked = 0;
    for (const [file, text] of Object.entries(code))
      for (const m of text.matchAll(handMade)) {
        // Only a status right after this errorBody's own call (not one of a later statement).
        if (m[0].includes(";")) continue;
        expect(Number(m[2]), `${file}: ${m[1]}`).toBe(statusOf(m[1] as never));
        checked++;
      }
    expect(checked).toBeGreaterThanOrEqual(10); // the regex still finds them
  });

  it("a parameter's own code is invalid_<parameter>, a 400", () => {
    expect(statusOf("invalid_block")).toBe(400);
    expect(PARAMETER_CODE.test("invalid_orderBy")).toBe(true);
    expect(PARAMETER_CODE.test("invalid_")).toBe(false);
    expect(statusOf("block_not_indexed")).toBe(422);
  });
});
