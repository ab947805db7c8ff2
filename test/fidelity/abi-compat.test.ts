/**
 * Our devnet contracts stand in for the deployed ones. Every event, function and constructor
 * of the six contracts we mirror must exist with the same signature (names, types, indexed
 * flags, outputs) in the deployed ABIs of ../shared/reference/base-mainnet, so handlers, reads
 * and `cast call` commands written against the devnet work unchanged on Base.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadArtifact } from "../../devnet/artifacts.js";

const REFERENCE_DIR = join(import.meta.dirname, "..", "..", "..", "shared", "reference", "base-mainnet", "abis");

/** Devnet contract → deployed contract whose ABI it reproduces. */
const MIRRORED = {
  KUSD: "kUSD",
  KUSDPSM: "KUSDPSM",
  StakedKUSD: "skUSD",
  KerneVault: "KerneVault",
  KerneInsuranceFund: "KerneInsuranceFund",
  KerneTreasury: "KerneTreasury",
} as const;

type AbiItem = { type: string; name?: string; inputs?: AbiParam[]; outputs?: AbiParam[]; stateMutability?: string };
type AbiParam = { type: string; indexed?: boolean; components?: AbiParam[] };

const paramSig = (p: AbiParam): string =>
  p.type.startsWith("tuple") ? `(${(p.components ?? []).map(paramSig).join(",")})${p.type.slice(5)}` : p.type;

/** Signature that tells apart everything a caller or a log decoder depends on. */
function itemSignature(item: AbiItem): string {
  const inputs = (item.inputs ?? []).map((p) => `${paramSig(p)}${p.indexed ? " indexed" : ""}`).join(",");
  const outputs = item.outputs ? ` returns (${item.outputs.map(paramSig).join(",")})` : "";
  const mutability = item.type === "function" ? ` ${item.stateMutability}` : "";
  return `${item.type} ${item.name ?? ""}(${inputs})${outputs}${mutability}`;
}

function referenceAbi(name: string): AbiItem[] {
  const raw = JSON.parse(readFileSync(join(REFERENCE_DIR, `${name}.json`), "utf8"));
  return Array.isArray(raw) ? raw : raw.abi;
}

describe("ABI compatibility with the deployed contracts", () => {
  for (const [ours, deployed] of Object.entries(MIRRORED)) {
    it(`${ours} is a subset of the deployed ${deployed}`, () => {
      const reference = new Set(referenceAbi(deployed).map(itemSignature));
      const missing = (loadArtifact(ours).abi as AbiItem[])
        .filter((item) => ["event", "function", "constructor"].includes(item.type))
        .map(itemSignature)
        .filter((sig) => !reference.has(sig));
      expect(missing).toEqual([]);
    });
  }

  it("the reads the operator documents exist on the deployed contracts", () => {
    const has = (contract: string, sig: string) => referenceAbi(contract).map(itemSignature).includes(sig);
    expect(has("kUSD", "function totalSupply() returns (uint256) view")).toBe(true);
    expect(has("kUSD", "function hasRole(bytes32,address) returns (bool) view")).toBe(true);
    expect(has("skUSD", "function convertToAssets(uint256) returns (uint256) view")).toBe(true);
    expect(has("KUSDPSM", "event Swap(address indexed,address indexed,address indexed,uint256,uint256)")).toBe(true);
  });

  it("the signature function tells apart indexed flags and outputs", () => {
    const a = itemSignature({ type: "event", name: "E", inputs: [{ type: "address", indexed: true }] });
    const b = itemSignature({ type: "event", name: "E", inputs: [{ type: "address" }] });
    expect(a).not.toBe(b);
  });
});
