import { describe, expect, it } from "vitest";
import { renderDoctorTable } from "./render.js";
import type { DoctorReport } from "./types.js";

describe("renderDoctorTable", () => {
  it("renders a table with aligned columns and a summary", () => {
    const report: DoctorReport = {
      ok: false,
      recommended: { ethGetLogsBlockRange: null },
      rows: [
        { check: "chain id", subject: "base", result: "ok", detail: "eth_chainId 8453" },
        {
          check: "deployment block",
          subject: "kUSD",
          result: "FAIL",
          detail: "start block 9 would miss the first 1 blocks of history",
        },
      ],
      requests: 12,
    };
    expect(renderDoctorTable(report)).toBe(
      [
        "check             subject  result  detail",
        "chain id          base     ok      eth_chainId 8453",
        "deployment block  kUSD     FAIL    start block 9 would miss the first 1 blocks of history",
        "NOT READY: 1 ok, 1 failed, 0 warnings; 12 RPC requests",
        "",
      ].join("\n"),
    );
  });

  it("says READY when nothing failed, warnings counted", () => {
    const report: DoctorReport = {
      ok: true,
      recommended: { ethGetLogsBlockRange: 500 },
      rows: [{ check: "feed", subject: "ETH / USD", result: "warn", detail: "stale" }],
      requests: 3,
    };
    expect(renderDoctorTable(report).trimEnd().split("\n").at(-1)).toBe(
      "READY: 0 ok, 0 failed, 1 warnings; 3 RPC requests",
    );
  });
});
