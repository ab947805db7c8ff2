import { describe, expect, it } from "vitest";
import { parseVerifyArgs } from "./args.js";

const statement = ["s.json", "--signer", "0x00000000000000000000000000000000000000aa", "--rpc", "http://base"];
const hash = `0x${"ab".repeat(32)}`;

describe("--l1-rpc: trust only Ethereum", () => {
  it("implies --proofs, with Ethereum as the trust anchor", () => {
    const c = parseVerifyArgs([...statement, "--l1-rpc", "http://eth"]);
    expect(c.kind === "verify" && c.rederive?.proofs).toEqual({
      blockHash: null,
      headerRpc: null,
      l1: { rpc: "http://eth", blockHash: null },
    });
  });

  it("takes the Ethereum block hash the reader trusts", () => {
    const c = parseVerifyArgs([
      "--report",
      "por.json",
      "--rpc",
      "http://base",
      "--l1-rpc",
      "http://eth",
      "--l1-block-hash",
      hash.toUpperCase().replace("0X", "0x"),
    ]);
    expect(c.kind === "report" && c.rederive.proofs?.l1).toEqual({ rpc: "http://eth", blockHash: hash });
  });

  it.each([
    [["--l1-block-hash", hash], "--l1-block-hash needs --l1-rpc"],
    [["--l1-rpc", "http://eth", "--proofs", "--header-rpc", "http://h"], "choose one trust anchor"],
    [["--l1-rpc", "http://eth", "--proofs", "--block-hash", hash], "choose one trust anchor"],
    [["--l1-rpc", "eth"], "--l1-rpc: not an http(s) URL"],
    [["--l1-rpc", "http://eth", "--l1-block-hash", "0x12"], "--l1-block-hash: 0x and 64 hex digits"],
  ])("refuses %j", (extra, why) => {
    expect(() => parseVerifyArgs([...statement, ...extra])).toThrow(why);
  });

  it("needs --rpc: the Base RPC whose headers are checked against the posted roots", () => {
    expect(() =>
      parseVerifyArgs(["s.json", "--signer", "0x00000000000000000000000000000000000000aa", "--l1-rpc", "http://eth"]),
    ).toThrow("--l1-rpc needs --rpc");
  });
});
