import { describe, expect, it } from "vitest";
import { narrationIn } from "./narration.js";

// The phrases to find are put together here, so this file holds none of them as written.
const S = "session";

describe("narrationIn", () => {
  it("finds numbered and relative sessions and rounds of work", () => {
    const text = [
      `**2026-11-30, tenth ${S}: how close 0.9 is to the floor.**`,
      `That is where the next ${S} should look.`,
      `Under CI's load (this ${S}'s trials, both passes at once)`,
      `measured in a ${S} of its own`,
      `the ninth ${S} gave 0.85`,
    ].join("\n");
    expect(narrationIn(text).map((h) => h.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it("leaves the project's own sessions: a database's and an MCP client's", () => {
    const text = [
      "checks it first, in the same session as the lock",
      "over this session's spend cap of 0.3 USDC",
      "PGlite is one session, so sharing Ponder's instance",
      "a session advisory lock, dropped with a dead process's connection",
      "the first round of reads is one batch",
    ].join("\n");
    expect(narrationIn(text)).toEqual([]);
  });
});
