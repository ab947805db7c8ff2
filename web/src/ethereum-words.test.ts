import { describe, expect, it } from "vitest";
import type { L1Anchoring } from "../../packages/verify/src/index.js";
import { ethereumLines, finalWords, pendingOnEthereum, trustWords } from "./ethereum-words.js";

const GAME = "0x00000000000000000000000000000000000000a1" as const;
const OTHER = "0x00000000000000000000000000000000000000b2" as const;
const l1 = { number: 138, hash: `0x${"11".repeat(32)}` as const, timestamp: 1_790_000_000 };

const proven: L1Anchoring = {
  status: "proven",
  detail: `Base block 1188 (0x…) is committed to by game ${GAME}'s root 15 for block 1188`,
  l1,
  blockHash: `0x${"22".repeat(32)}`,
  game: {
    address: GAME,
    index: 19,
    range: { from: 1140, to: 1200 },
    standing: "in-progress",
    detail: "in progress (1 proof): resolves at 2026-09-22T00:00:05Z unless challenged",
    finalAt: 1_790_000_005,
    rootIndex: 15,
    rootBlock: 1188,
    root: `0x${"33".repeat(32)}`,
  },
  games: [],
  headersWalked: 0,
  l1ProofCalls: 41,
};

const pending: L1Anchoring = {
  status: "pending",
  detail: "Base block 1188 is newer than every root posted on L1 at Ethereum block 138",
  l1,
  blockHash: null,
  game: null,
  games: [{ address: OTHER, index: 18, range: { from: 1080, to: 1140 }, standing: "final", detail: "resolved" }],
  headersWalked: 0,
  next: { block: 1200, baseTimeAbout: 1_790_000_120 },
  l1ProofCalls: 30,
};

const failed: L1Anchoring = { ...pending, status: "failed", detail: "no root posted on L1 commits to Base block 1191" };
delete failed.next;

describe("finalWords", () => {
  it("says when the game is final: now, after the registry's delay, or at its resolution unless challenged", () => {
    expect(finalWords({ standing: "final" })).toBe(
      "the game is final: Base's proof system no longer overturns its root",
    );
    expect(finalWords({ standing: "resolved", finalAt: 1_790_000_000 })).toMatch(
      /^the game is final at 2026-09-21T14:13:20Z \(the registry's finality delay/,
    );
    expect(finalWords(proven.game!)).toBe(
      "the game is final at 2026-09-21T14:13:25Z unless challenged (its resolution, then the registry's finality delay)",
    );
  });
});

describe("ethereumLines", () => {
  const at =
    "Ethereum block 138, dated 2026-09-21T14:13:20Z: your Ethereum RPC's latest header, its hash computed here";
  it("proven: when the game is final, the other games covering the block, the Ethereum block it was proven at", () => {
    const other = { ...pending.games[0]!, standing: "invalid" as const, detail: "blacklisted by the guardian" };
    expect(ethereumLines({ ...proven, games: [other] })).toEqual([
      finalWords(proven.game!),
      `also covering the block: game ${OTHER} (Base blocks 1081–1140): invalid: blacklisted by the guardian`,
      `${at}; 41 eth_getProof answers checked against it`,
    ]);
  });
  it("pending: the Ethereum block (the check's line names the game block that will cover it, and about when)", () => {
    expect(ethereumLines(pending)).toEqual([`${at}; 30 eth_getProof answers checked against it`]);
  });
  it("failed: the games judged, then the Ethereum block", () => {
    expect(ethereumLines(failed)).toEqual([
      `game ${OTHER} (Base blocks 1081–1140): resolved`,
      `${at}; 30 eth_getProof answers checked against it`,
    ]);
  });
});

describe("pendingOnEthereum", () => {
  const ok = { name: "figures", ok: true };
  const ethereum = { name: "ethereum", ok: false, detail: "PENDING: …" };
  it("every check passed but Ethereum's, which is pending", () => {
    expect(pendingOnEthereum({ ethereum: pending, checks: [ethereum, ok] })).toBe(true);
    expect(pendingOnEthereum({ ethereum: pending, checks: [ethereum, { name: "anchored", ok: false }] })).toBe(false);
    expect(pendingOnEthereum({ ethereum: failed, checks: [{ ...ethereum, detail: "x" }, ok] })).toBe(false);
    expect(pendingOnEthereum({ ethereum: null, checks: [ok] })).toBe(false);
  });
});

describe("trustWords", () => {
  it("proven from Ethereum: an Ethereum header from that RPC and the game's state; not the Base RPC, not the operator", () => {
    const words = trustWords({ proofs: true, ethereum: proven, block: 1188 });
    expect(words).toContain("an Ethereum header from your Ethereum RPC (block 138");
    expect(words).toContain(
      `the state of Base's proof system there (game ${GAME}: in progress; until it resolves, its root rests on its proposer's proof)`,
    );
    expect(words).toContain("not your Base RPC");
    expect(words).toContain("not this site's operator");
  });
  it("pending or failed: the Base RPC's header, as without an Ethereum RPC", () => {
    expect(trustWords({ proofs: true, ethereum: pending, block: 1188 })).toMatch(
      /^Not proven from Ethereum \(pending\): the proofs rest on your Base RPC's header for block 1188/,
    );
    expect(trustWords({ proofs: true, ethereum: failed, block: 1188 })).toMatch(/^Not proven from Ethereum \(failed\)/);
  });
  it("without an Ethereum RPC: the Base RPC's header with proofs, its answers without", () => {
    expect(trustWords({ proofs: true, ethereum: null, block: 7 })).toMatch(
      /^You trust your Base RPC's header for block 7/,
    );
    expect(trustWords({ proofs: false, ethereum: null, block: 7 })).toMatch(
      /^You trust your Base RPC's answers at block 7/,
    );
  });
});
