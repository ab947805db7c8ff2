import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellQuote } from "./shell-quote.js";

describe("shellQuote", () => {
  it("leaves plain words alone and quotes the rest", () => {
    expect(shellQuote("0xAbC123")).toBe("0xAbC123");
    expect(shellQuote("balanceOf(address)(uint256)")).toBe("'balanceOf(address)(uint256)'");
    expect(shellQuote("")).toBe("''");
  });

  it("round-trips through bash exactly, apostrophes, dollars and backticks included", () => {
    for (const s of [
      "I control this account. It belongs to the kUSD operator's published account registry as of 2026-08-13, and every transfer out of it is subject to the registry's violation predicate.",
      "$HOME `id` \\ \" ' ''",
      "a\nb",
    ]) {
      expect(execFileSync("bash", ["-c", `printf '%s' ${shellQuote(s)}`], { encoding: "utf8" })).toBe(s);
    }
  });
});
