/**
 * The transactions of Base's proof actors on the L1 devnet: a proposer creating a game with a TEE
 * proof (`createWithInitData`), a challenger disputing one intermediate root with a ZK proof
 * (`challenge`), anyone resolving a game and offering it as the anchor. A "proof" here is the
 * devnet prover key's signature over the journal the game computes (SignatureProofVerifier).
 */
import { BASE_PROOF_SYSTEM, encodeGameExtraData } from "@kusd/core";
import {
  type Address,
  concat,
  encodePacked,
  type Hex,
  keccak256,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
  toHex,
  type WalletClient,
} from "viem";
import { sign } from "viem/accounts";
import { aggregateVerifierAbi, disputeGameFactoryAbi, signatureProofVerifierAbi } from "../../abis/index.js";
import { DEVNET_PROOF_PARAMS, PROGRAM_HASHES, PROOF_KEYS } from "./params.js";

const PROOF_TYPE = { TEE: 0, ZK: 1 } as const;

/** The errors a game creation can revert with: the factory's, the game's, its verifiers'. */
const CREATION_ERRORS = [...aggregateVerifierAbi, ...signatureProofVerifierAbi].filter((e) => e.type === "error");

/** The public inputs a proof of an L2 range commits to, hashed as AggregateVerifier hashes them. */
export function proofJournal(j: {
  proposer: Address;
  l1OriginHash: Hex;
  startingRoot: Hex;
  startingBlock: bigint;
  endingRoot: Hex;
  endingBlock: bigint;
  intermediateRoots: readonly Hex[];
  programHash: Hex;
}): Hex {
  return keccak256(
    encodePacked(
      ["address", "bytes32", "bytes32", "uint64", "bytes32", "uint64", "bytes32[]", "bytes32", "bytes32"],
      [
        j.proposer,
        j.l1OriginHash,
        j.startingRoot,
        j.startingBlock,
        j.endingRoot,
        j.endingBlock,
        j.intermediateRoots,
        PROGRAM_HASHES.configHash,
        j.programHash,
      ],
    ),
  );
}

const signature = (journal: Hex, privateKey: Hex): Promise<Hex> => sign({ hash: journal, privateKey, to: "hex" });

async function mined(client: PublicClient, hash: Hex): Promise<TransactionReceipt> {
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

export type Proposal = {
  /** The parent game, or the anchor state registry for a game on the starting anchor. */
  parent: Address;
  parentRoot: Hex;
  parentBlock: bigint;
  /** The output roots of the game's checkpoint blocks, in order; the last is its root claim. */
  intermediateRoots: readonly Hex[];
};

/** Creates a game through the factory with a TEE proof, as Base's proposer does; answers its address. */
export async function proposeGame(l1: PublicClient, wallet: WalletClient, p: Proposal): Promise<Address> {
  const proposer = wallet.account!.address;
  const l2BlockNumber = p.parentBlock + BigInt(DEVNET_PROOF_PARAMS.blockInterval);
  const rootClaim = p.intermediateRoots.at(-1)!;
  const extraData = encodeGameExtraData({ l2BlockNumber, parent: p.parent, intermediateRoots: p.intermediateRoots });
  // The L1 origin is the head: the game is created in the next block, which still sees its hash.
  const origin = await l1.getBlock();
  const journal = proofJournal({
    proposer,
    l1OriginHash: origin.hash!,
    startingRoot: p.parentRoot,
    startingBlock: p.parentBlock,
    endingRoot: rootClaim,
    endingBlock: l2BlockNumber,
    intermediateRoots: p.intermediateRoots,
    programHash: PROGRAM_HASHES.teeImageHash,
  });
  const initData = concat([
    toHex(PROOF_TYPE.TEE, { size: 1 }),
    origin.hash!,
    toHex(origin.number!, { size: 32 }),
    // The signature alone: the game puts the proposer before it, as Base's TEEVerifier reads a proof.
    await signature(journal, PROOF_KEYS.teeSigner.privateKey),
  ]);
  const call = {
    address: BASE_PROOF_SYSTEM.disputeGameFactory,
    abi: [...disputeGameFactoryAbi, ...CREATION_ERRORS],
    functionName: "createWithInitData",
    args: [DEVNET_PROOF_PARAMS.gameType, rootClaim, extraData, initData],
    value: DEVNET_PROOF_PARAMS.initBond,
    account: wallet.account!,
    chain: wallet.chain,
  } as const;
  const receipt = await mined(l1, await wallet.writeContract(call));
  const [created] = parseEventLogs({ abi: disputeGameFactoryAbi, eventName: "DisputeGameCreated", logs: receipt.logs });
  if (!created) throw new Error("the factory created no game");
  return created.args.disputeProxy;
}

/**
 * Disputes intermediate root `index` of `game` with a ZK proof of `correctRoot`, proven from the
 * game's previous root (the starting root for index 0) over one intermediate interval.
 */
export async function challengeGame(
  l1: PublicClient,
  wallet: WalletClient,
  c: { game: Address; index: number; correctRoot: Hex; startingRoot: Hex; startingBlock: bigint; l1Head: Hex },
): Promise<void> {
  const challenger = wallet.account!.address;
  const from = c.startingBlock + BigInt(c.index * DEVNET_PROOF_PARAMS.intermediateBlockInterval);
  const journal = proofJournal({
    proposer: challenger,
    l1OriginHash: c.l1Head,
    startingRoot: c.startingRoot,
    startingBlock: from,
    endingRoot: c.correctRoot,
    endingBlock: from + BigInt(DEVNET_PROOF_PARAMS.intermediateBlockInterval),
    intermediateRoots: [c.correctRoot],
    programHash: PROGRAM_HASHES.zkRangeHash,
  });
  // The game hands a ZK proof to its verifier as it is: the prover, then the signature.
  const proof = concat([
    toHex(PROOF_TYPE.ZK, { size: 1 }),
    challenger,
    await signature(journal, PROOF_KEYS.zkSigner.privateKey),
  ]);
  const call = {
    address: c.game,
    abi: [...aggregateVerifierAbi, ...signatureProofVerifierAbi.filter((e) => e.type === "error")],
    functionName: "challenge",
    args: [proof, BigInt(c.index), c.correctRoot],
    account: wallet.account!,
    chain: wallet.chain,
  } as const;
  await l1.simulateContract({ ...call, blockTag: "pending" });
  await mined(l1, await wallet.writeContract(call));
}

/** Sends `resolve()` or `closeGame()` when a call at the next block would succeed; true when sent. */
export async function settleGame(
  l1: PublicClient,
  wallet: WalletClient,
  game: Address,
  functionName: "resolve" | "closeGame",
): Promise<boolean> {
  const call = {
    address: game,
    abi: aggregateVerifierAbi,
    functionName,
    account: wallet.account!,
    chain: wallet.chain,
    // closeGame swallows a failed setAnchorState: an estimate finds the least gas with which the
    // call succeeds, the inner call out of gas. A fixed limit lets the registry run.
    gas: 1_000_000n,
  } as const;
  // At "pending": the next block's timestamp, which is when the transaction would run.
  const ok = await l1.simulateContract({ ...call, blockTag: "pending" }).then(
    () => true,
    () => false,
  );
  if (ok) await mined(l1, await wallet.writeContract(call));
  return ok;
}
