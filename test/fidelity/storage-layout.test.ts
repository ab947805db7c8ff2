/**
 * The storage proofs of `kusd-verify --proofs` read the slots solc lays out for the devnet's
 * contracts (packages/verify/src/proofs/storage-layouts.ts). They prove figures on Base only if
 * the deployed contracts keep those variables in the same slots: compiled from the operator's
 * verified sources, each variable a proof reads has the same slot and offset as the devnet's.
 */
import { describe, expect, it } from "vitest";
import { STORAGE_LAYOUTS } from "../../packages/verify/src/index.js";
import { compileReferences } from "./compile-reference.js";
import { operatorRepoDir, REFERENCE_BUNDLES } from "./reference-bundles.js";

/** The variables packages/verify/src/proofs/proof-plans.ts reads, where a contract has them. */
const PROVED = [
  "_balances",
  "_totalSupply",
  "_roles",
  "_paused",
  "offChainAssets",
  "l1Assets",
  "hedgingReserve",
  "verificationNode",
  "_trackedOnChainAssets",
  "_trackedAssets",
  "lastYieldAmount",
  "lastYieldTime",
  "yieldVestingPeriod",
];

describe("the slots the storage proofs read", () => {
  it("are where the operator's verified sources keep them, for every deployed contract the figures read", async () => {
    const compiled = await compileReferences(REFERENCE_BUNDLES, operatorRepoDir(process.cwd()));
    const compared: string[] = [];
    const differ: string[] = [];
    for (const c of compiled) {
      const bundle = REFERENCE_BUNDLES.find((b) => b.family === c.family)!;
      expect(c.ok, `${bundle.deployed}: ${c.ok ? "" : c.reason}`).toBe(true);
      if (!c.ok) continue;
      const ours = STORAGE_LAYOUTS[bundle.devnetArtifact as keyof typeof STORAGE_LAYOUTS] as Record<
        string,
        { slot: string; offset: number }
      >;
      // Every variable, not only those the proofs read today: a figure proved tomorrow is in place too.
      for (const label of Object.keys(ours)) {
        const devnet = ours[label];
        if (!devnet) continue;
        const deployed = c.storage[label];
        compared.push(`${bundle.devnetArtifact}.${label}`);
        if (deployed?.slot !== devnet.slot || deployed.offset !== devnet.offset)
          differ.push(
            `${bundle.deployed} ${label}: deployed slot ${deployed?.slot ?? "none"}/${deployed?.offset ?? "-"}, devnet ${devnet.slot}/${devnet.offset}`,
          );
      }
    }
    console.log(`storage layout: ${compared.length} variables compared, ${differ.length} differ`);
    expect(differ).toEqual([]);
    expect(compared.length).toBeGreaterThan(100);
    const provedCompared = new Set(compared.map((c) => c.split(".").pop()));
    expect(PROVED.filter((label) => !provedCompared.has(label))).toEqual([]);
  }, 600_000);
});
