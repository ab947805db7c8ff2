/** What kusd-verify --l1-rpc answers, for the tests of the tools that carry it. */
import type { Ethereum } from "./verify-inputs.js";

/** What kusd-verify --l1-rpc says of a block newer than every posted root (numbers as on the devnet). */
export const pendingAnchoring: Ethereum = {
  status: "pending",
  detail:
    "Base block 1188 is newer than every root posted on L1 at Ethereum block 138: the newest game, 0x1111111111111111111111111111111111111111, covers up to block 1140; the root covering it comes with the game for block 1200 (Base reaches it about 2026-12-07T15:46:40Z; its game follows once proposed)",
  l1: { number: 138, hash: `0x${"12".repeat(32)}`, timestamp: 1_796_658_000 },
  blockHash: null,
  game: null,
  games: [
    {
      address: "0x1111111111111111111111111111111111111111",
      index: 18,
      range: { from: 1080, to: 1140 },
      standing: "in-progress",
      detail:
        "in progress (1 proof): resolves at 2026-12-07T15:41:05Z unless challenged; until then it rests on its proposer's proof",
      finalAt: 1_796_658_065,
    },
  ],
  headersWalked: 0,
  next: { block: 1200, baseTimeAbout: 1_796_658_400 },
  l1ProofCalls: 24,
};
