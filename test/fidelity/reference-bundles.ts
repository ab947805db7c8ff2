/**
 * Which verified source bundle of the operator's repository stands for which deployed contract,
 * and which devnet artifact imitates it. The operator's files are read in place from ../shared
 * (MIT, read-only); nothing of theirs is copied into this project.
 */
import { resolve } from "node:path";

export type FamilyId = "kusd" | "psmV1" | "psmV3" | "psmLive" | "skusdV1" | "skusdLive" | "vaultV1" | "vaultV2";

export type ReferenceBundle = {
  family: FamilyId;
  /** The deployed contract this bundle is the verified source of. */
  deployed: string;
  devnetArtifact: string;
  /** Bundle directory (relative to the operator repo) whose metadata.json and lib/ are used. */
  bundleDir: string;
  /** metadata source key -> file (relative to the operator repo) that replaces the bundle's copy. */
  overrides: Record<string, string>;
  notes: string[];
};

/** The operator's repository as CI lays it out: ../shared beside the project. */
export function operatorRepoDir(projectRoot: string): string {
  return resolve(projectRoot, "..", "shared", "reference", "base-mainnet", "operator-repo");
}

const LIVE_PSM_SRC = "audits/scope/0912c870/src";

export const REFERENCE_BUNDLES: readonly ReferenceBundle[] = [
  {
    family: "kusd",
    deployed: "kUSD 0x5C2EfdF0…0AA3",
    devnetArtifact: "KUSD",
    bundleDir: "contracts/kUSD",
    overrides: {},
    notes: [],
  },
  {
    family: "psmV1",
    deployed: "KUSDPSM v1, redeem reserve 0xFf3025ec…5Fbc",
    devnetArtifact: "KUSDPSMV1",
    bundleDir: "v1-contracts-at-50cb6b0/contracts/KUSDPSM",
    overrides: {},
    notes: [],
  },
  {
    family: "psmV3",
    deployed: "KUSDPSM v3, retired mint PSM 0x07eBb486…5993",
    devnetArtifact: "KUSDPSMV3",
    bundleDir: "contracts/KUSDPSM",
    overrides: {},
    notes: [],
  },
  {
    family: "psmLive",
    deployed: "KUSDPSM, live mint PSM 0xaBDE1138…9803",
    devnetArtifact: "KUSDPSM",
    bundleDir: "contracts/KUSDPSM",
    overrides: {
      "src/KUSDPSM.sol": `${LIVE_PSM_SRC}/KUSDPSM.sol`,
      "src/interfaces/IAggregatorV3.sol": `${LIVE_PSM_SRC}/interfaces/IAggregatorV3.sol`,
    },
    // The live PSM has no bundle of its own (audits/SCOPE.md): its source is the audited commit's,
    // built with the v3 bundle's settings and OpenZeppelin copy, which the deployment shares.
    notes: [
      `source ${LIVE_PSM_SRC}/KUSDPSM.sol with ${LIVE_PSM_SRC}/interfaces, compiled with the compiler settings ` +
        "and OpenZeppelin lib of contracts/KUSDPSM/ (the live PSM has no verified bundle of its own in the repo)",
    ],
  },
  {
    family: "skusdV1",
    deployed: "skUSD v1 0xdEd74F7E…9DB4",
    devnetArtifact: "StakedKUSDV1",
    bundleDir: "v1-contracts-at-50cb6b0/contracts/skUSD",
    overrides: {},
    notes: [],
  },
  {
    family: "skusdLive",
    deployed: "skUSD live 0x96F5102C…FA14",
    devnetArtifact: "StakedKUSD",
    bundleDir: "contracts/skUSD",
    overrides: {},
    notes: [],
  },
  {
    family: "vaultV1",
    deployed: "KerneVault v1 0x8005bc7A…F2AC",
    devnetArtifact: "KerneVaultV1",
    bundleDir: "v1-contracts-at-50cb6b0/contracts/KerneVault",
    overrides: {},
    notes: [],
  },
  {
    family: "vaultV2",
    deployed: "KerneVault v2 0x8ccc56B5…292B",
    devnetArtifact: "KerneVault",
    bundleDir: "contracts/KerneVault",
    overrides: {},
    notes: [],
  },
];
