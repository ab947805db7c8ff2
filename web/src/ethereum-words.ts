/**
 * The figure check's `ethereum` result in words, under the check's own line (the verifier's
 * `l1Check`, as `kusd-verify --l1-rpc` prints it: the game and root the block rests on and the
 * game's state, the game block that will cover it and about when, or why not): when the game is
 * final, the other games judged, and the Ethereum block it all rests on. And what a reader trusts
 * once the check has run, with an Ethereum RPC and without.
 */
import type { Check, GameSummary, L1Anchoring } from "../../packages/verify/src/index.js";

const iso = (unix: number) => new Date(unix * 1000).toISOString().replace(".000Z", "Z");

/** Every check passed but Ethereum's, which waits for a root to be posted (kusd-verify's PENDING, exit 3). */
export const pendingOnEthereum = (r: { ethereum: L1Anchoring | null; checks: Check[] }) =>
  r.ethereum?.status === "pending" && r.checks.every((c) => c.ok || c.name === "ethereum");

/** When the game the block rests on is final: the check's own line says its state. */
export function finalWords(g: Pick<GameSummary, "standing" | "finalAt">): string {
  const at = g.finalAt === undefined ? null : iso(g.finalAt);
  switch (g.standing) {
    case "final":
      return "the game is final: Base's proof system no longer overturns its root";
    case "resolved":
      return `the game is final at ${at ?? "the end of the registry's finality delay"} (the registry's finality delay after its resolution)`;
    case "in-progress":
      return `the game is final at ${at ?? "its resolution"} unless challenged (its resolution, then the registry's finality delay)`;
    case "invalid":
      return "the game is invalid";
  }
}

/** A game the check judged besides the one rested on, and why it stands as it does. */
const otherGame = (g: GameSummary) =>
  `game ${g.address} (Base blocks ${g.range.from + 1}–${g.range.to}): ${g.standing === "invalid" ? "invalid: " : ""}${g.detail}`;

/**
 * The lines under the ethereum check (whose own line names the game and its root, or the game
 * block that will cover the block and about when, or why not): when the game is final, the other
 * games judged, and the Ethereum block it all rests on.
 */
export function ethereumLines(l1: L1Anchoring): string[] {
  const at = `Ethereum block ${l1.l1.number}, dated ${iso(l1.l1.timestamp)}: your Ethereum RPC's latest header, its hash computed here; ${l1.l1ProofCalls} eth_getProof answers checked against it`;
  if (l1.status === "proven" && l1.game)
    return [finalWords(l1.game), ...l1.games.map((g) => `also covering the block: ${otherGame(g)}`), at];
  if (l1.status === "pending") return [at];
  return [...l1.games.map(otherGame), at];
}

/** What the reader trusts for the statement's block once the check has run. */
export function trustWords(c: { proofs: boolean; ethereum: L1Anchoring | null; block: number }): string {
  if (c.ethereum?.status === "proven") {
    const g = c.ethereum.game;
    const state = !g
      ? ""
      : ` (game ${g.address}: ${g.standing === "in-progress" ? "in progress; until it resolves, its root rests on its proposer's proof" : g.standing === "resolved" ? "resolved, final after the registry's delay" : g.standing})`;
    return `You trust an Ethereum header from your Ethereum RPC (block ${c.ethereum.l1.number}, its latest) and the state of Base's proof system there${state}; not your Base RPC (its header and proofs count only where they hash up to the block hash proven from Ethereum), and not this site's operator.`;
  }
  const own = `your Base RPC's header for block ${c.block} (the statement's own report_block_hash, as that RPC confirms it)`;
  if (c.ethereum)
    return `Not proven from Ethereum (${c.ethereum.status}): the proofs rest on ${own}, so you trust that RPC for the block, as without an Ethereum RPC; not this site's operator.`;
  if (c.proofs)
    return `You trust ${own}: every read is proven against it, no other answer is taken on its word; not this site's operator. With an Ethereum RPC, you would trust an Ethereum header and Base's proof system instead of your Base RPC.`;
  return `You trust your Base RPC's answers at block ${c.block}; not this site's operator. With proofs, only its header for that block; with an Ethereum RPC, not your Base RPC at all.`;
}
