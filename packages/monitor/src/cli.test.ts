import { describe, expect, it } from "vitest";
import { MONITOR_USAGE, runMonitorCli } from "./cli.js";

describe("kusd-monitor's command line", () => {
  it("answers --help (and -h) with its usage and exit codes, exit 0", async () => {
    for (const flag of ["--help", "-h"]) {
      let out = "";
      expect(await runMonitorCli([flag], { write: (s) => (out += s), env: {} })).toBe(0);
      expect(out).toBe(MONITOR_USAGE);
    }
    expect(MONITOR_USAGE).toMatch(/Exit codes:[\s\S]*3 {2}\(--once only\) something is still queued/);
  });

  it("names what is missing on a usage error, exit 2", async () => {
    let out = "";
    expect(await runMonitorCli([], { write: (s) => (out += s), env: {} })).toBe(2);
    expect(out).toMatch(/^error: --api is required/);
  });
});

describe("kusd-monitor's alert kinds", () => {
  it("turns each flag into its kind or condition", async () => {
    const { parseMonitorArgs } = await import("./cli.js");
    const o = parseMonitorArgs(
      [
        "--api",
        "http://x",
        "--stdout",
        "--minter-role-changes",
        "--backing-ratio-below",
        "0.995",
        "--statement-max-age",
        "7200",
        "--venue-unreadable-after",
        "300",
      ],
      {},
    );
    expect(o.kinds).toEqual(["violation", "minter_role_change", "backing_ratio"]);
    expect(o).toMatchObject({
      backingRatioBelow: "0.995",
      statementMaxAgeSeconds: 7200,
      venueUnreadableAfterSeconds: 300,
    });
    expect(() => parseMonitorArgs(["--api", "http://x", "--stdout", "--backing-ratio-below", "-1"], {})).toThrow(
      /ratio/,
    );
  });
});
