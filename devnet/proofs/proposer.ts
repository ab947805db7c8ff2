/**
 * The devnet's proof actors, one loop beside the chains while the devnet runs (started and stopped
 * by ../devnet.ts): the proposer posts the Base devnet's output roots to the ethereum devnet on the
 * cadence of ./cadence.ts; the challenger disputes any game in progress whose intermediate roots
 * are not the Base devnet's; and every game is resolved once its time has come, the newest one
 * that won offered as the registry's anchor. Each round follows both chains (a reorg of the base
 * devnet, the events of every game), so a test that mines, reverts or posts a game of its own meets
 * actors that answer as Base's do (docs.base.org, "Proofs": proposer, challenger).
 */
import { BASE_PROOF_SYSTEM, GAME_STATUS as GAME } from "@kusd/core";
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  getAbiItem,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  toEventSelector,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { aggregateVerifierAbi, anchorStateRegistryAbi } from "../../abis/index.js";
import { devnetChain } from "../chains.js";
import { challengeGame, proposeGame, settleGame } from "./actions.js";
import { checkpointBlocks, dueProposal } from "./cadence.js";
import { type GameRecord, type GameState, gameCount, readGameState, readGames } from "./games.js";
import { OutputRoots } from "./output-roots.js";
import { DEVNET_PROOF_PARAMS, PROOF_KEYS } from "./params.js";

const PROPOSALS_PER_ROUND = 4;
/** The registry's one event that is no guardian's act: a new anchor. */
const ANCHOR_UPDATED = toEventSelector(getAbiItem({ abi: anchorStateRegistryAbi, name: "AnchorUpdated" }));

/** A game's roots against the Base devnet's chain: all equal, the first that differs, or not all blocks there yet. */
type Verdict = { kind: "valid" } | { kind: "invalid"; index: number; correctRoot: Hex } | { kind: "ahead" };

export type ProposerOptions = {
  ethereumRpcUrl: string;
  baseRpcUrl: string;
  /** Milliseconds between rounds. */
  intervalMs?: number;
  log?: (line: string) => void;
};

export type ProofActors = { stop(): Promise<void> };

export function startProofActors(options: ProposerOptions): ProofActors {
  const actors = new Actors(options);
  return { stop: () => actors.stop() };
}

/** A revert's error name and arguments where viem decoded them, else the message's first line. */
function reason(error: unknown): string {
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError && revert.data)
      return `${revert.data.errorName}(${(revert.data.args ?? []).map(String).join(", ")})`;
    return error.shortMessage;
  }
  return error instanceof Error ? error.message.split("\n")[0]! : String(error);
}

class Actors {
  private readonly l1: PublicClient;
  private readonly base: PublicClient;
  private readonly proposer: WalletClient;
  private readonly challenger: WalletClient;
  private readonly roots: OutputRoots;
  private readonly log: (line: string) => void;
  private games: GameRecord[] = [];
  private readonly states = new Map<Address, GameState>();
  /** Verdicts hold while the Base chain only grows; a reorg clears them. */
  private verdicts = new Map<Address, Verdict>();
  private seenHead: { number: bigint; hash: Hex } | null = null;
  /** Games the challenger's transaction was refused for, until the Base chain reorgs. */
  private refused = new Set<Address>();
  /** The last L1 block whose events were read. */
  private l1CheckedTo = 0n;
  /** Games this proposer posted, and whether it has reached the head once. */
  private posted = 0;
  private caughtUp = false;
  /** The last game offered to the registry as anchor. */
  private anchorOffered: Address | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  private lastError = "";

  constructor(private readonly o: ProposerOptions) {
    const chain = devnetChain(1, o.ethereumRpcUrl);
    // No cached block number: each round reads the chains as they are.
    this.l1 = createPublicClient({
      chain,
      transport: http(o.ethereumRpcUrl, { batch: true }),
      cacheTime: 0,
    }) as PublicClient;
    this.base = createPublicClient({ transport: http(o.baseRpcUrl, { batch: true }), cacheTime: 0 }) as PublicClient;
    const wallet = (key: Hex) =>
      createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(o.ethereumRpcUrl) });
    this.proposer = wallet(PROOF_KEYS.proposer.privateKey);
    this.challenger = wallet(PROOF_KEYS.challenger.privateKey);
    this.roots = new OutputRoots(this.base);
    this.log = o.log ?? (() => {});
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.round = this.once()
        .then(
          () => {
            this.lastError = "";
          },
          (error: unknown) => {
            // A round that fails is tried again the next time; the same failure is said once.
            const message = reason(error);
            if (message !== this.lastError && !this.stopped) this.log(`proof actors: ${message}`);
            this.lastError = message;
          },
        )
        .finally(() => this.schedule(this.o.intervalMs ?? 1_000));
    }, ms);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
  }

  private async once(): Promise<void> {
    const head = await this.base.getBlock();
    await this.followBase(head.number!, head.hash!);
    await this.followGames();
    await this.challenge();
    await this.resolve();
    await this.propose(head.number!);
  }

  /** A head that is not a descendant of the last one seen is a reorg: every verdict is read again. */
  private async followBase(number: bigint, hash: Hex) {
    const seen = this.seenHead;
    if (seen && !(number === seen.number ? hash === seen.hash : await this.hasBlock(seen))) {
      this.verdicts = new Map();
      this.refused = new Set();
    }
    this.seenHead = { number, hash };
  }

  private async hasBlock(b: { number: bigint; hash: Hex }): Promise<boolean> {
    const block = await this.base.getBlock({ blockNumber: b.number }).catch(() => null);
    return block?.hash === b.hash;
  }

  /**
   * New games from the factory, and the state of every game an L1 event touched since the last
   * round: a proof, a challenge, a resolution; any act of the guardian (a blacklisted game, a
   * retirement) touches all.
   */
  private async followGames() {
    const l1Head = await this.l1.getBlockNumber();
    // An L1 devnet gone back to an earlier state: start again from it.
    if (l1Head < this.l1CheckedTo || (await gameCount(this.l1)) < this.games.length) {
      this.games = [];
      this.states.clear();
      this.verdicts = new Map();
      this.l1CheckedTo = 0n;
    }
    if (l1Head === this.l1CheckedTo) return;
    const logs = await this.l1.getLogs({ fromBlock: this.l1CheckedTo + 1n, toBlock: l1Head });
    this.l1CheckedTo = l1Head;
    const known = this.games.length;
    if (logs.some((l) => getAddress(l.address) === BASE_PROOF_SYSTEM.disputeGameFactory))
      this.games.push(...(await readGames(this.l1, known, await gameCount(this.l1))));
    const guardianActed = logs.some(
      (l) => getAddress(l.address) === BASE_PROOF_SYSTEM.anchorStateRegistry && l.topics[0] !== ANCHOR_UPDATED,
    );
    const touched = new Set(logs.map((l) => getAddress(l.address)));
    const stale = this.games.filter((g, i) => guardianActed || i >= known || touched.has(g.address));
    const states = await Promise.all(stale.map((g) => readGameState(this.l1, g.address)));
    for (const [i, g] of stale.entries()) this.states.set(g.address, states[i]!);
  }

  private async verdict(g: GameRecord): Promise<Verdict> {
    const known = this.verdicts.get(g.address);
    if (known && known.kind !== "ahead") return known;
    const parentBlock = g.l2SequenceNumber - BigInt(DEVNET_PROOF_PARAMS.blockInterval);
    const outputs = await this.roots.at(checkpointBlocks(parentBlock, DEVNET_PROOF_PARAMS));
    let v: Verdict = { kind: "valid" };
    for (const [index, out] of outputs.entries()) {
      if (!out) {
        v = { kind: "ahead" };
        break;
      }
      if (out.outputRoot !== g.intermediateRoots[index]) {
        v = { kind: "invalid", index, correctRoot: out.outputRoot };
        break;
      }
    }
    this.verdicts.set(g.address, v);
    return v;
  }

  private parentLost(g: GameRecord): boolean {
    const parent = this.states.get(g.parentAddress);
    return !!parent && (parent.status === GAME.CHALLENGER_WINS || parent.blacklisted || parent.retired);
  }

  /** Every game in progress, unchallenged, whose roots are not the chain's: the first wrong root is disputed. */
  private async challenge() {
    for (const g of this.games) {
      const s = this.states.get(g.address)!;
      if (s.status !== GAME.IN_PROGRESS || s.counteredBy > 0n || s.blacklisted || s.retired || this.parentLost(g))
        continue;
      const v = await this.verdict(g);
      if (v.kind !== "invalid" || this.refused.has(g.address)) continue;
      const startingRoot =
        v.index === 0
          ? await this.l1.readContract({
              address: g.address,
              abi: aggregateVerifierAbi,
              functionName: "startingRootHash",
            })
          : g.intermediateRoots[v.index - 1]!;
      try {
        await challengeGame(this.l1, this.challenger, {
          game: g.address,
          index: v.index,
          correctRoot: v.correctRoot,
          startingRoot,
          startingBlock: g.l2SequenceNumber - BigInt(DEVNET_PROOF_PARAMS.blockInterval),
          l1Head: g.l1Head,
        });
        this.log(`challenger: game ${g.index} (Base block ${g.l2SequenceNumber}) root ${v.index} is not the chain's`);
      } catch (error) {
        // Refused (its parent lost meanwhile, say): not tried again until the chain moves.
        this.refused.add(g.address);
        this.log(`challenger: game ${g.index} not challenged: ${reason(error)}`);
      }
      this.states.set(g.address, await readGameState(this.l1, g.address));
    }
  }

  /** Resolves, oldest first, every game whose time has come, then offers the newest winner as anchor. */
  private async resolve() {
    // The next block's time, which is when a transaction sent now runs.
    const now = (await this.l1.getBlock({ blockTag: "pending" })).timestamp;
    let newestWinner: GameRecord | null = null;
    for (const g of this.games) {
      const s = this.states.get(g.address)!;
      if (s.status === GAME.IN_PROGRESS && (s.expectedResolution <= now || this.parentLost(g))) {
        if (await settleGame(this.l1, this.challenger, g.address, "resolve"))
          this.states.set(g.address, await readGameState(this.l1, g.address));
      }
      const after = this.states.get(g.address)!;
      if (after.status === GAME.DEFENDER_WINS && !after.blacklisted) newestWinner = g;
    }
    if (!newestWinner || newestWinner.address === this.anchorOffered) return;
    // closeGame swallows the registry's refusal: ask the registry first, at the next block's time.
    const accepted = await this.l1
      .simulateContract({
        address: BASE_PROOF_SYSTEM.anchorStateRegistry,
        abi: anchorStateRegistryAbi,
        functionName: "setAnchorState",
        args: [newestWinner.address],
        account: this.challenger.account!,
        blockTag: "pending",
      })
      .then(
        () => true,
        () => false,
      );
    if (accepted && (await settleGame(this.l1, this.challenger, newestWinner.address, "closeGame")))
      this.anchorOffered = newestWinner.address;
  }

  /**
   * Builds on the newest game whose roots are all the chain's and that nothing invalidated (the
   * starting anchor when there is none), and posts every game the head has reached.
   */
  private async propose(head: bigint) {
    let parent = await this.parent();
    let posted = 0;
    // A few games a round: the history's games at startup are spread over the seconds in which the
    // indexer reads the same chain.
    while (posted < PROPOSALS_PER_ROUND) {
      const block = dueProposal(parent.block, head, DEVNET_PROOF_PARAMS);
      if (block === null) break;
      const outputs = await this.roots.at(checkpointBlocks(parent.block, DEVNET_PROOF_PARAMS));
      if (outputs.some((o) => !o)) break;
      const intermediateRoots = outputs.map((o) => o!.outputRoot);
      const address = await proposeGame(this.l1, this.proposer, {
        parent: parent.address,
        parentRoot: parent.root,
        parentBlock: parent.block,
        intermediateRoots,
      });
      this.verdicts.set(address, { kind: "valid" });
      parent = { address, root: intermediateRoots.at(-1)!, block };
      posted++;
    }
    this.posted += posted;
    // Said once, when the games of the chain as it stood at startup are all posted.
    if (!this.caughtUp && dueProposal(parent.block, head, DEVNET_PROOF_PARAMS) === null) {
      this.caughtUp = true;
      this.log(`proposer: ${this.posted} output roots posted, the last for Base block ${parent.block}`);
    }
  }

  private async parent(): Promise<{ address: Address; root: Hex; block: bigint }> {
    const byAddress = new Map(this.games.map((g) => [g.address, g]));
    const newestFirst = [...this.games].sort((a, b) =>
      a.l2SequenceNumber === b.l2SequenceNumber ? b.index - a.index : a.l2SequenceNumber < b.l2SequenceNumber ? 1 : -1,
    );
    for (const g of newestFirst) {
      if (await this.usable(g, byAddress)) return { address: g.address, root: g.rootClaim, block: g.l2SequenceNumber };
    }
    const start = await this.l1.readContract({
      address: BASE_PROOF_SYSTEM.anchorStateRegistry,
      abi: anchorStateRegistryAbi,
      functionName: "getStartingAnchorRoot",
    });
    return { address: BASE_PROOF_SYSTEM.anchorStateRegistry, root: start.root, block: start.l2SequenceNumber };
  }

  /** Not lost, challenged or blacklisted, its roots the chain's, and so back to the starting anchor. */
  private async usable(g: GameRecord, byAddress: Map<Address, GameRecord>): Promise<boolean> {
    for (let game: GameRecord | undefined = g; game; game = byAddress.get(game.parentAddress)) {
      const s = this.states.get(game.address)!;
      if (s.status === GAME.CHALLENGER_WINS || s.counteredBy > 0n || s.blacklisted || s.retired) return false;
      if ((await this.verdict(game)).kind !== "valid") return false;
      if (game.parentAddress === BASE_PROOF_SYSTEM.anchorStateRegistry) return true;
    }
    return false;
  }
}
