/**
 * The ethereum devnet carries the Base devnet's output roots as Ethereum carries Base's: games of
 * type 621 in the DisputeGameFactory at Base's address, each root claim and intermediate root equal
 * to the output root recomputed here from the base devnet's block (its header, and eth_getProof of
 * the L2ToL1MessagePasser for the storage root), a new game once the chain has grown by the
 * interval, and a root that is not the chain's challenged and lost, or blacklisted by the guardian.
 */
import { BASE_PROOF_SYSTEM, GAME_STATUS, gameUuid, L2_TO_L1_MESSAGE_PASSER, parseGameClone } from "@kusd/core";
import {
  concat,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEther,
  toHex,
  zeroHash,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  aggregateVerifierAbi,
  anchorStateRegistryAbi,
  disputeGameFactoryAbi,
  l2ToL1MessagePasserAbi,
} from "../../abis/index.js";
import { devnetChain } from "../../devnet/chains.js";
import { devnetKey } from "../../devnet/keys.js";
import { proposeGame } from "../../devnet/proofs/actions.js";
import { type GameRecord, gameCount, readGameState, readGames } from "../../devnet/proofs/games.js";
import { DEVNET_PROOF_PARAMS, PROOF_KEYS } from "../../devnet/proofs/params.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const ethereumRpc = d.chains.ethereum.rpcUrl;
const l1 = createPublicClient({ chain: devnetChain(1, ethereumRpc), transport: http(ethereumRpc) }) as PublicClient;
const factory = { address: BASE_PROOF_SYSTEM.disputeGameFactory, abi: disputeGameFactoryAbi } as const;
const registry = { address: BASE_PROOF_SYSTEM.anchorStateRegistry, abi: anchorStateRegistryAbi } as const;
const { blockInterval, intermediateBlockInterval, gameType } = DEVNET_PROOF_PARAMS;
/** The storage root of an account without storage: the empty trie's. */
const EMPTY_TRIE_ROOT = keccak256("0x80");

/** Version 0, state root, message-passer storage root, block hash: hashed here from the RPC's own answers. */
async function recomputed(block: bigint): Promise<{ root: Hex; storageRoot: Hex }> {
  const header = await s.client.request({ method: "eth_getBlockByNumber", params: [toHex(block), false] });
  const proof = await s.client.request({ method: "eth_getProof", params: [L2_TO_L1_MESSAGE_PASSER, [], toHex(block)] });
  return {
    root: keccak256(concat([zeroHash, header!.stateRoot, proof.storageHash, header!.hash!])),
    storageRoot: proof.storageHash,
  };
}

const allGames = async () => readGames(l1, 0, await gameCount(l1));

/** The newest game not challenged, lost or blacklisted, and its ancestors down to the starting anchor. */
async function canonicalChain(): Promise<GameRecord[]> {
  const games = await allGames();
  const states = new Map(
    await Promise.all(games.map(async (g) => [g.address, await readGameState(l1, g.address)] as const)),
  );
  const ok = (g: GameRecord) => {
    const st = states.get(g.address)!;
    return (
      g.creator === PROOF_KEYS.proposer.address &&
      st.status !== GAME_STATUS.CHALLENGER_WINS &&
      st.counteredBy === 0n &&
      !st.blacklisted
    );
  };
  const byAddress = new Map(games.map((g) => [g.address, g]));
  const newest = games.filter(ok).sort((a, b) => Number(b.l2SequenceNumber - a.l2SequenceNumber))[0]!;
  const chain: GameRecord[] = [];
  for (let g: GameRecord | undefined = newest; g; g = byAddress.get(g.parentAddress)) chain.push(g);
  return chain;
}

/** Waits until the newest canonical game is at the last multiple of the interval the head has reached. */
async function caughtUp(): Promise<GameRecord[]> {
  let chain: GameRecord[] = [];
  await expect
    .poll(
      async () => {
        const head = await s.client.getBlockNumber();
        chain = await canonicalChain();
        return chain[0]!.l2SequenceNumber === head - (head % BigInt(blockInterval));
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  return chain;
}

describe("Base devnet output roots on the ethereum devnet", () => {
  it("puts the proof system at Base's addresses, with the devnet's cadence and delays read from it", async () => {
    expect(d.chains.ethereum.contracts.disputeGameFactory?.address).toBe(BASE_PROOF_SYSTEM.disputeGameFactory);
    expect(d.chains.ethereum.contracts.anchorStateRegistry?.address).toBe(BASE_PROOF_SYSTEM.anchorStateRegistry);
    const impl = await l1.readContract({ ...factory, functionName: "gameImpls", args: [gameType] });
    expect(impl).toBe(BASE_PROOF_SYSTEM.aggregateVerifier);
    const read = (functionName: "BLOCK_INTERVAL" | "INTERMEDIATE_BLOCK_INTERVAL" | "SLOW_FINALIZATION_DELAY") =>
      l1.readContract({ address: impl, abi: aggregateVerifierAbi, functionName });
    expect(await read("BLOCK_INTERVAL")).toBe(BigInt(blockInterval));
    expect(await read("INTERMEDIATE_BLOCK_INTERVAL")).toBe(BigInt(intermediateBlockInterval));
    expect(await read("SLOW_FINALIZATION_DELAY")).toBe(BigInt(DEVNET_PROOF_PARAMS.slowFinalizationDelaySeconds));
    expect(await l1.readContract({ ...registry, functionName: "disputeGameFinalityDelaySeconds" })).toBe(
      BigInt(DEVNET_PROOF_PARAMS.disputeGameFinalityDelaySeconds),
    );
    expect(await l1.readContract({ ...registry, functionName: "respectedGameType" })).toBe(gameType);
    // The starting anchor is the Base devnet's genesis block.
    const start = await l1.readContract({ ...registry, functionName: "getStartingAnchorRoot" });
    expect(start).toEqual({ root: (await recomputed(0n)).root, l2SequenceNumber: 0n });
  });

  it("has a game every interval from genesis to the head, each root the base devnet's block's output root", async () => {
    const chain = await caughtUp();
    // Back to the starting anchor, one game per interval, the oldest on genesis.
    expect(chain.at(-1)!.parentAddress).toBe(BASE_PROOF_SYSTEM.anchorStateRegistry);
    expect(chain.map((g) => g.l2SequenceNumber)).toEqual(
      chain.map((_, i) => BigInt(blockInterval * (chain.length - i))),
    );
    expect(chain.length).toBeGreaterThanOrEqual(Math.floor(d.chains.base.historyEndBlock / blockInterval));
    for (const g of chain) {
      const start = g.l2SequenceNumber - BigInt(blockInterval);
      const expected = await Promise.all(
        g.intermediateRoots.map((_, i) => recomputed(start + BigInt((i + 1) * intermediateBlockInterval))),
      );
      expect(g.intermediateRoots, `game ${g.index} at Base block ${g.l2SequenceNumber}`).toEqual(
        expected.map((e) => e.root),
      );
      expect(g.rootClaim).toBe(expected.at(-1)!.root);
    }
    // The message passer holds storage from genesis: its root is never the empty trie's.
    expect((await recomputed(chain[0]!.l2SequenceNumber)).storageRoot).not.toBe(EMPTY_TRIE_ROOT);
  });

  it("holds each game's claim in the clone's code as the game's getters answer it, keyed in the factory", async () => {
    const [g] = (await canonicalChain()).slice(0, 1);
    const code = await l1.getCode({ address: g!.address });
    const args = parseGameClone(code!);
    const read = <
      F extends "rootClaim" | "l2SequenceNumber" | "parentAddress" | "extraData" | "gameCreator" | "l1Head",
    >(
      functionName: F,
    ) => l1.readContract({ address: g!.address, abi: aggregateVerifierAbi, functionName });
    expect(args.implementation).toBe(BASE_PROOF_SYSTEM.aggregateVerifier);
    expect(args.rootClaim).toBe(await read("rootClaim"));
    expect(args.l2SequenceNumber).toBe(await read("l2SequenceNumber"));
    expect(args.parentAddress).toBe(await read("parentAddress"));
    expect(args.extraData).toBe(await read("extraData"));
    expect(args.creator).toBe(await read("gameCreator"));
    expect(args.creator).toBe(PROOF_KEYS.proposer.address);
    expect(args.l1Head).toBe(await read("l1Head"));
    const [proxy] = await l1.readContract({
      ...factory,
      functionName: "games",
      args: [gameType, args.rootClaim, args.extraData],
    });
    expect(proxy).toBe(g!.address);
    expect(
      await l1.readContract({
        ...factory,
        functionName: "getGameUUID",
        args: [gameType, args.rootClaim, args.extraData],
      }),
    ).toBe(gameUuid(gameType, args.rootClaim, args.extraData));
  });

  it("resolves the games in the defender's favour once their delay has passed, and moves the anchor", async () => {
    const chain = await caughtUp();
    const oldest = chain.at(-1)!;
    expect(await l1.readContract({ address: oldest.address, abi: aggregateVerifierAbi, functionName: "status" })).toBe(
      GAME_STATUS.DEFENDER_WINS,
    );
    expect(await l1.readContract({ ...registry, functionName: "isGameClaimValid", args: [oldest.address] })).toBe(true);
    await expect
      .poll(async () => (await l1.readContract({ ...registry, functionName: "getAnchorRoot" }))[1], { timeout: 30_000 })
      .toBeGreaterThanOrEqual(chain[1]!.l2SequenceNumber);
  });

  it("posts the next root once the chain has grown by the interval, with a withdrawal in the storage root", async () => {
    const [latest] = await caughtUp();
    const before = await recomputed(latest!.l2SequenceNumber);
    // A withdrawal to L1: a new slot of the message passer.
    const user = devnetKey("base:test-withdrawer");
    await s.client.request({
      method: "anvil_setBalance" as never,
      params: [user.address, toHex(parseEther("1"))] as never,
    });
    const wallet = s.wallet(user.privateKey);
    const hash = await wallet.writeContract({
      address: L2_TO_L1_MESSAGE_PASSER,
      abi: l2ToL1MessagePasserAbi,
      functionName: "initiateWithdrawal",
      args: [user.address, 100_000n, "0x"],
      value: 1n,
    });
    expect((await s.client.waitForTransactionReceipt({ hash })).status).toBe("success");
    const next = latest!.l2SequenceNumber + BigInt(blockInterval);
    while ((await s.client.getBlockNumber()) < next) await s.client.request({ method: "evm_mine" as never });
    const [newest] = await caughtUp();
    expect(newest!.l2SequenceNumber).toBeGreaterThanOrEqual(next);
    const after = await recomputed(newest!.l2SequenceNumber);
    expect(after.storageRoot).not.toBe(before.storageRoot);
    expect(newest!.rootClaim).toBe(after.root);
    await s.caughtUp();
  });

  it("challenges a game whose intermediate root is not the chain's, which then loses", async () => {
    const [latest] = await caughtUp();
    const parent = (await allGames()).find((g) => g.address === latest!.parentAddress)!;
    // A proposer that lies about one intermediate root in the middle of the range.
    const faulty = await faultyProposer("ethereum:test-faulty-proposer");
    const roots = [...latest!.intermediateRoots];
    roots[7] = keccak256(toHex("not the output root of this block"));
    const game = await proposeGame(l1, faulty, {
      parent: parent.address,
      parentRoot: parent.rootClaim,
      parentBlock: parent.l2SequenceNumber,
      intermediateRoots: roots,
    });
    const state = () => readGameState(l1, game);
    await expect.poll(async () => (await state()).counteredBy, { timeout: 20_000 }).toBe(8n);
    const poll = expect.poll(async () => (await state()).status, {
      timeout: 10_000 + DEVNET_PROOF_PARAMS.slowFinalizationDelaySeconds * 1_000,
      interval: 500,
    });
    await poll.toBe(GAME_STATUS.CHALLENGER_WINS);
    expect(await l1.readContract({ ...registry, functionName: "isGameClaimValid", args: [game] })).toBe(false);
    // The honest game at the same block is untouched.
    expect((await readGameState(l1, latest!.address)).counteredBy).toBe(0n);
  });

  it("lets the guardian blacklist a game, which no longer counts", async () => {
    const [latest] = await caughtUp();
    const parent = (await allGames()).find((g) => g.address === latest!.parentAddress)!;
    const faulty = await faultyProposer("ethereum:test-blacklisted-proposer");
    const roots = latest!.intermediateRoots.map((r, i) => (i === 19 ? keccak256(r) : r));
    const game = await proposeGame(l1, faulty, {
      parent: parent.address,
      parentRoot: parent.rootClaim,
      parentBlock: parent.l2SequenceNumber,
      intermediateRoots: roots,
    });
    const guardian = createWalletClient({
      account: privateKeyToAccount(PROOF_KEYS.guardian.privateKey),
      chain: devnetChain(1, ethereumRpc),
      transport: http(ethereumRpc),
    });
    const hash = await guardian.writeContract({ ...registry, functionName: "blacklistDisputeGame", args: [game] });
    expect((await l1.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await l1.readContract({ ...registry, functionName: "isGameBlacklisted", args: [game] })).toBe(true);
    expect(await l1.readContract({ ...registry, functionName: "isGameProper", args: [game] })).toBe(false);
    // Anyone but the guardian is refused.
    await expect(
      faulty.writeContract({ ...registry, functionName: "blacklistDisputeGame", args: [latest!.address] }),
    ).rejects.toThrow(/AnchorStateRegistry_Unauthorized/);
  });
});

async function faultyProposer(label: string) {
  const key = devnetKey(label);
  await l1.request({ method: "anvil_setBalance" as never, params: [key.address, toHex(parseEther("1"))] as never });
  return createWalletClient({
    account: privateKeyToAccount(key.privateKey),
    chain: devnetChain(1, ethereumRpc),
    transport: http(ethereumRpc),
  });
}
