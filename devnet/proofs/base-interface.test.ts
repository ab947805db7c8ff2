/**
 * The devnet's proof contracts answer as Base's do: every function and event they have is one of
 * Base's, with the same selector, mutability and outputs (or indexed inputs), the functions a
 * verifier reads are all there, and every variable Base keeps is in the same slot. Base's side is
 * base-interface.json, recorded from base/contracts at the commit of the deployed game.
 */
import { BASE_PROOF_SYSTEM } from "@kusd/core";
import {
  type AbiEvent,
  type AbiFunction,
  getAddress,
  toEventSelector,
  toFunctionSelector,
  toFunctionSignature,
} from "viem";
import { describe, expect, it } from "vitest";
import * as abis from "../../abis/index.js";
import { loadArtifact } from "../artifacts.js";
import reference from "./base-interface.json" with { type: "json" };

type Recorded = {
  functions: Record<string, [selector: string, mutability: string, outputs: string]>;
  events: Record<string, [topic0: string, indexed: boolean[]]>;
  storage?: [label: string, slot: number, offset: number, bytes: number][];
};
const { _source: source, ...recorded } = reference;
const base = recorded as unknown as Record<string, Recorded>;

/** Devnet contract → the Base contract(s) whose interface it reproduces. */
const COUNTERPARTS: Record<string, { abi: readonly unknown[]; base: string[] }> = {
  AggregateVerifier: { abi: abis.aggregateVerifierAbi, base: ["AggregateVerifier"] },
  DisputeGameFactory: { abi: abis.disputeGameFactoryAbi, base: ["DisputeGameFactory"] },
  AnchorStateRegistry: { abi: abis.anchorStateRegistryAbi, base: ["AnchorStateRegistry"] },
  SystemConfig: { abi: abis.systemConfigAbi, base: ["SystemConfig"] },
  SignatureProofVerifier: { abi: abis.signatureProofVerifierAbi, base: ["TEEVerifier", "ZKVerifier"] },
  L2ToL1MessagePasser: { abi: abis.l2ToL1MessagePasserAbi, base: ["L2ToL1MessagePasser"] },
};

/** What a verifier reads to find a game, prove its claim and say where it stands. */
const READ_BY_A_VERIFIER: Record<string, string[]> = {
  DisputeGameFactory: [
    "gameCount()",
    "gameAtIndex(uint256)",
    "games(uint32,bytes32,bytes)",
    "findLatestGames(uint32,uint256,uint256)",
    "gameImpls(uint32)",
    "getGameUUID(uint32,bytes32,bytes)",
  ],
  AggregateVerifier: [
    "rootClaim()",
    "l2SequenceNumber()",
    "parentAddress()",
    "l1Head()",
    "extraData()",
    "gameData()",
    "gameType()",
    "gameCreator()",
    "status()",
    "createdAt()",
    "resolvedAt()",
    "expectedResolution()",
    "gameOver()",
    "proofCount()",
    "counteredByIntermediateRootIndexPlusOne()",
    "intermediateOutputRoot(uint256)",
    "intermediateOutputRoots()",
    "intermediateOutputRootsCount()",
    "BLOCK_INTERVAL()",
    "INTERMEDIATE_BLOCK_INTERVAL()",
    "SLOW_FINALIZATION_DELAY()",
    "FAST_FINALIZATION_DELAY()",
    "startingBlockNumber()",
    "startingRootHash()",
    "anchorStateRegistry()",
    "wasRespectedGameTypeWhenCreated()",
  ],
  AnchorStateRegistry: [
    "disputeGameFinalityDelaySeconds()",
    "getAnchorRoot()",
    "getStartingAnchorRoot()",
    "respectedGameType()",
    "retirementTimestamp()",
    "isGameBlacklisted(address)",
    "isGameRetired(address)",
    "isGameRegistered(address)",
    "isGameRespected(address)",
    "isGameProper(address)",
    "isGameResolved(address)",
    "isGameFinalized(address)",
    "isGameClaimValid(address)",
  ],
};

const typeOf = (p: { type: string; components?: readonly { type: string }[] }): string =>
  p.type.startsWith("tuple") ? `(${(p.components ?? []).map(typeOf).join(",")})${p.type.slice(5)}` : p.type;
/** A caller sees no difference between view and pure: both only read. */
const access = (m: string) => (m === "view" || m === "pure" ? "read" : m);

describe("Base's recorded interface", () => {
  it("names its source and commit, and every selector and topic is its signature's", () => {
    expect(source).toMatch(/base\/contracts at f3a33c8577c8ca1e037b45e822bfcb75f099270b/);
    for (const c of Object.values(base)) {
      for (const [sig, [selector]] of Object.entries(c.functions)) expect(toFunctionSelector(sig), sig).toBe(selector);
      for (const [sig, [topic]] of Object.entries(c.events)) expect(toEventSelector(sig), sig).toBe(topic);
    }
  });

  it("records the mainnet addresses in their checksummed form", () => {
    for (const [name, value] of Object.entries(BASE_PROOF_SYSTEM))
      if (typeof value === "string") expect(getAddress(value), name).toBe(value);
  });
});

describe.each(Object.entries(COUNTERPARTS))("the devnet's %s", (name, { abi, base: counterparts }) => {
  const functions = (abi as AbiFunction[]).filter((e) => e.type === "function");
  const events = (abi as unknown as AbiEvent[]).filter((e) => e.type === "event");

  it.each(counterparts)("has only functions and events of Base's %s, with the same selectors and shapes", (b) => {
    const recorded = base[b]!;
    for (const f of functions) {
      const sig = toFunctionSignature(f);
      const theirs = recorded.functions[sig];
      expect(theirs, `${sig} is not a function of Base's ${b}`).toBeDefined();
      expect(toFunctionSelector(f)).toBe(theirs![0]);
      expect(access(f.stateMutability), `${sig}'s mutability`).toBe(access(theirs![1]));
      expect(`(${f.outputs.map(typeOf).join(",")})`, `${sig}'s outputs`).toBe(theirs![2]);
    }
    for (const e of events) {
      const sig = `${e.name}(${e.inputs.map(typeOf).join(",")})`;
      const theirs = recorded.events[sig];
      expect(theirs, `${sig} is not an event of Base's ${b}`).toBeDefined();
      expect(toEventSelector(e)).toBe(theirs![0]);
      expect(
        e.inputs.map((i) => !!i.indexed),
        `${sig}'s indexed inputs`,
      ).toEqual(theirs![1]);
    }
  });

  it("has every function a verifier reads", () => {
    const ours = new Set(functions.map((f) => toFunctionSignature(f)));
    for (const sig of READ_BY_A_VERIFIER[name] ?? []) expect(ours.has(sig), sig).toBe(true);
  });

  it("keeps each of Base's state variables in Base's slot", () => {
    const theirs = base[counterparts[0]!]!.storage ?? [];
    const ours = new Map(loadArtifact(name).storage.map((v) => [v.label, v]));
    for (const [label, slot, offset, bytes] of theirs) {
      // Gaps and spacers only hold later variables in place; Base's upgradeable bases name them alike.
      if (label.startsWith("__gap") || label.startsWith("spacer")) continue;
      const v = ours.get(label);
      expect(v, `${name} has no ${label}`).toBeDefined();
      expect({ slot: Number(v!.slot), offset: v!.offset, bytes: v!.bytes }, label).toEqual({ slot, offset, bytes });
    }
  });
});
