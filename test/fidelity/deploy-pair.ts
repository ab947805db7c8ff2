/**
 * Deploys the two sides on one chain: side A from the operator's verified sources, side B from
 * the devnet artifacts. Each side gets its own kUSD and its own supporting contracts (USDC, WETH,
 * price feed, flash borrower, all from the devnet artifacts), so balances never mix; the actors
 * are the same EOAs on both sides.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Abi, type Address, encodeDeployData, type Hex, keccak256, toHex, zeroAddress } from "viem";
import type { Chain } from "./chain.js";
import type { CompiledReference } from "./compile-reference.js";
import type { FamilyId } from "./reference-bundles.js";

export type SupportRole = "usdc" | "weth" | "feed" | "borrower";
export type Role = FamilyId | SupportRole;
export type SideName = "A" | "B";

export const ACTOR_NAMES = ["safe", "operator", "alice", "bob", "treasury", "exchange"] as const;
export type ActorName = (typeof ACTOR_NAMES)[number];

/** Deterministic EOAs, one per name (no keys: the chain impersonates them). */
export const ACTORS = Object.fromEntries(
  ACTOR_NAMES.map((n) => [n, `0x${keccak256(toHex(`kusd-fidelity:${n}`)).slice(26)}` as Address]),
) as Record<ActorName, Address>;

export type Side = {
  name: SideName;
  label: string;
  addr: Partial<Record<Role, Address>>;
  abi: Partial<Record<Role, Abi>>;
  /** Why a role could not be deployed on this side. */
  missing: Partial<Record<Role, string>>;
};

export type Pair = Record<SideName, Side>;

type Artifact = { abi: Abi; bytecode: Hex };

const SUPPORT_ARTIFACTS: Record<SupportRole, string> = {
  usdc: "FiatTokenV2",
  weth: "WETH9",
  feed: "PriceFeed",
  borrower: "FlashBorrower",
};

/** Constructor arguments as on Base (kUSD's admin is the operator's hot wallet, the PSMs' the Safe). */
function constructorArgs(role: Role, side: Side): unknown[] {
  const a = side.addr;
  switch (role) {
    case "usdc":
      return [ACTORS.safe];
    case "weth":
    case "borrower":
      return [];
    case "feed":
      return [8, "USDC / USD", ACTORS.operator];
    case "kusd":
      return [ACTORS.operator];
    case "psmV1":
    case "psmV3":
    case "psmLive":
    case "skusdV1":
    case "skusdLive":
      return [a.kusd, ACTORS.safe];
    case "vaultV1":
      return [a.weth, "Kerne WETH Vault", "kWETH", ACTORS.safe, ACTORS.operator, ACTORS.exchange];
    case "vaultV2":
      // The deployed v2 was built with exchangeDepositAddress = 0 (its sweeps fall back to treasury).
      return [a.weth, "Kerne Vault", "kLP", ACTORS.safe, ACTORS.operator, zeroAddress];
  }
}

export function loadDevnetArtifact(projectRoot: string, name: string): Artifact | null {
  const path = join(projectRoot, "devnet", "artifacts", `${name}.json`);
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, "utf8")) as Artifact;
}

const WAVES: Role[][] = [
  ["usdc", "weth", "feed", "borrower", "kusd"],
  ["psmV1", "psmV3", "psmLive", "skusdV1", "skusdLive", "vaultV1", "vaultV2"],
];

export async function deployPair(
  chain: Chain,
  references: CompiledReference[],
  devnetArtifacts: Record<FamilyId, string>,
  projectRoot: string,
  describeRevert: (data: Hex) => string,
): Promise<Pair> {
  const pair: Pair = {
    A: { name: "A", label: "reference", addr: {}, abi: {}, missing: {} },
    B: { name: "B", label: "devnet", addr: {}, abi: {}, missing: {} },
  };
  for (const actor of Object.values(ACTORS)) await chain.fund(actor);

  const artifactFor = (side: Side, role: Role): Artifact | string => {
    if (role in SUPPORT_ARTIFACTS) {
      const name = SUPPORT_ARTIFACTS[role as SupportRole];
      return loadDevnetArtifact(projectRoot, name) ?? `devnet artifact ${name} is missing`;
    }
    const family = role as FamilyId;
    if (side.name === "A") {
      const ref = references.find((r) => r.family === family);
      if (!ref) return "no reference bundle";
      return ref.ok ? { abi: ref.abi, bytecode: ref.bytecode } : `reference did not compile: ${ref.reason}`;
    }
    const name = devnetArtifacts[family];
    return loadDevnetArtifact(projectRoot, name) ?? `devnet artifact ${name}.json does not exist (yet)`;
  };

  for (const wave of WAVES) {
    const pending: { side: Side; role: Role; abi: Abi; hash: Hex }[] = [];
    for (const side of [pair.A, pair.B]) {
      for (const role of wave) {
        const artifact = artifactFor(side, role);
        if (typeof artifact === "string") {
          side.missing[role] = artifact;
          continue;
        }
        const args = constructorArgs(role, side);
        if (args.some((x) => x === undefined)) {
          side.missing[role] = "a contract its constructor needs is missing on this side";
          continue;
        }
        let data: Hex;
        try {
          data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args });
        } catch (e) {
          side.missing[role] =
            `constructor does not take the deployed contract's arguments: ${(e as Error).message.split("\n")[0]}`;
          continue;
        }
        pending.push({ side, role, abi: artifact.abi, hash: await chain.send({ from: ACTORS.safe, data }) });
      }
    }
    await chain.mine();
    for (const p of pending) {
      const receipt = await chain.receipt(p.hash);
      if (receipt.status !== "0x1" || !receipt.contractAddress) {
        p.side.missing[p.role] = `constructor reverted: ${describeRevert(await chain.revertData(p.hash))}`;
        continue;
      }
      p.side.addr[p.role] = receipt.contractAddress.toLowerCase() as Address;
      p.side.abi[p.role] = p.abi;
    }
  }
  return pair;
}
