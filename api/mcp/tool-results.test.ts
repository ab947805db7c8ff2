import { describe, expect, it } from "vitest";
import { FREE_TOOLS } from "./free-tools.js";
import { describeRefusal, queryOf } from "./tool-results.js";

/** Arguments an agent may send each tool, as the route's query strings. */
const SAMPLES: Record<string, Record<string, string>> = {
  por: { block: "120" },
  stats: { block: "latest" },
  apy: {},
  redemption_plan: { amount: "12.5", block: "99" },
  violations: { limit: "5", after: "10:2", fromBlock: "1", toBlock: "9" },
  history: { interval: "BLOCKS", step: "50", fromBlock: "1", toBlock: "200" },
  registry: { version: "3" },
  psm_status: { block: "7" },
  risk_status: {},
};

describe("queryOf", () => {
  it.each(FREE_TOOLS.map((t) => [t.name, t] as const))(
    "%s: the parsed arguments, sent back as a query, parse to the same values",
    (name, t) => {
      const schema = t.contract.query;
      if (!schema) return expect(queryOf({})).toBe("");
      const parsed = schema.parse(SAMPLES[name]);
      const again = schema.parse(Object.fromEntries(new URLSearchParams(queryOf(parsed))));
      expect(again).toEqual(parsed);
    },
  );
});

describe("describeRefusal", () => {
  it("says the route's code, message, status and details", () => {
    const body = JSON.stringify({
      error: { code: "invalid_block", message: "block must be…", details: { block: "x" } },
    });
    expect(describeRefusal(400, body)).toBe('invalid_block: block must be… (HTTP 400)\n{"block":"x"}');
  });
  it("shows a body that is not our error shape as it came", () => {
    expect(describeRefusal(502, "<html>bad gateway</html>")).toBe("HTTP 502: <html>bad gateway</html>");
  });
});
