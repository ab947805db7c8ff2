import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { pendingAnchoring } from "./anchoring.test-support.js";
import { EthereumSchema, runVerifier, splitL1, verifierArgs, withL1 } from "./verify-inputs.js";

const HASH = `0x${"ab".repeat(32)}` as const;

describe("splitL1", () => {
  it("takes l1Rpc and l1BlockHash out of what the API's schema checks", () => {
    expect(
      splitL1({
        rpc: "http://127.0.0.1:8545",
        l1Rpc: "http://127.0.0.1:8546",
        l1BlockHash: HASH.toUpperCase().replace("0X", "0x"),
      }),
    ).toEqual({
      ok: true,
      upstream: { rpc: "http://127.0.0.1:8545" },
      l1: { rpc: "http://127.0.0.1:8546", blockHash: HASH },
    });
    expect(splitL1({ path: "/api/stats", rpc: "http://a" })).toEqual({
      ok: true,
      upstream: { path: "/api/stats", rpc: "http://a" },
      l1: null,
    });
  });

  it.each([
    [{ rpc: "http://a", l1Rpc: "ws://b" }, "l1Rpc:"],
    [{ rpc: "http://a", l1Rpc: "http://b", l1BlockHash: "0x1234" }, "l1BlockHash: 0x and 64 hex digits"],
    [{ rpc: "http://a", l1BlockHash: HASH }, "l1BlockHash needs l1Rpc"],
    [{ l1Rpc: "http://b" }, "l1Rpc needs rpc"],
  ])("refuses %j", (args, message) => {
    const split = splitL1(args);
    expect(split.ok).toBe(false);
    expect(!split.ok && split.error).toContain(message);
  });
});

describe("withL1", () => {
  const tool: Tool = {
    name: "verify_report",
    inputSchema: {
      type: "object",
      properties: { rpc: { type: "string" } },
      required: ["rpc"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { verified: { type: "boolean" } },
      required: ["verified"],
      additionalProperties: false,
    },
  };

  it("adds l1Rpc and l1BlockHash to the API's inputs, status and ethereum to its output", () => {
    const listed = withL1(tool);
    expect(Object.keys(listed.inputSchema.properties ?? {})).toEqual(["rpc", "l1Rpc", "l1BlockHash"]);
    expect(listed.inputSchema).toMatchObject({ required: ["rpc"], additionalProperties: false });
    expect(listed.inputSchema.properties?.l1BlockHash).toMatchObject({
      type: "string",
      pattern: "^0x[0-9a-fA-F]{64}$",
    });
    expect(Object.keys(listed.outputSchema?.properties ?? {})).toEqual(["verified", "status", "ethereum"]);
    expect(listed.outputSchema?.required).toEqual(["verified", "status"]);
    expect(listed.outputSchema?.properties?.status).toMatchObject({ enum: ["verified", "pending", "not verified"] });
  });

  it("leaves every other tool as the API lists it", () => {
    expect(withL1({ ...tool, name: "stats" })).toEqual({ ...tool, name: "stats" });
  });
});

describe("EthereumSchema", () => {
  it("holds what kusd-verify --l1-rpc says", () => {
    expect(EthereumSchema.parse(pendingAnchoring)).toEqual(pendingAnchoring);
  });
});

describe("verifierArgs", () => {
  it("names the agent's sources as kusd-verify's options", () => {
    const l1 = { rpc: "http://127.0.0.1:8546", blockHash: HASH };
    expect(verifierArgs("devnet/network.json", { rpc: "http://127.0.0.1:8545", venue: "http://v/info", l1 })).toEqual([
      "--rpc",
      "http://127.0.0.1:8545",
      "--network",
      "devnet/network.json",
      "--venue",
      "http://v/info",
      "--l1-rpc",
      "http://127.0.0.1:8546",
      "--l1-block-hash",
      HASH,
    ]);
    expect(verifierArgs(null, { rpc: "http://a", venue: null, l1: { rpc: "http://b", blockHash: null } })).toEqual([
      "--rpc",
      "http://a",
      "--l1-rpc",
      "http://b",
    ]);
  });
});

describe("runVerifier", () => {
  it("reads kusd-verify's exit code as the status: 0 verified, 3 pending, 1 not verified", async () => {
    for (const [exitCode, status] of [
      [0, "verified"],
      [3, "pending"],
      [1, "not verified"],
    ] as const) {
      const outcome = await runVerifier(["report.json", "--report"], {}, async () => ({
        exitCode,
        output: JSON.stringify({ verified: exitCode === 0, checks: [], recovered: null, signedAt: null }),
      }));
      expect(outcome).toMatchObject({ judged: true, status });
    }
  });

  it("runs kusd-verify's own command line over the documents given: --l1-rpc and --l1-block-hash as it parses them", async () => {
    // Nothing listens on these ports: the verifier gets past its usage checks and stops at the Ethereum RPC (exit 2).
    const report = { pins: { report: "stats", block: { number: 1188, hash: `0x${"34".repeat(32)}` } } };
    const argv = verifierArgs(null, {
      rpc: "http://127.0.0.1:1",
      venue: null,
      l1: { rpc: "http://127.0.0.1:2", blockHash: HASH },
    });
    const outcome = await runVerifier(["report.json", "--report", ...argv], { "report.json": JSON.stringify(report) });
    expect(outcome).toEqual({ judged: false, error: expect.stringContaining(`the L1 RPC gave no header for ${HASH}`) });
  });
});
