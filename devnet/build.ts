/**
 * Compiles devnet/contracts with solc-js (OpenZeppelin resolved from node_modules) and writes
 * devnet/artifacts/<Contract>.json plus abis/<Contract>.ts (`as const`, for viem and Ponder).
 *
 *   npm run build:contracts            write the artifacts
 *   npm run build:contracts -- --check exit 1 when the committed artifacts are stale
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const contractsDir = join(root, "devnet", "contracts");
const artifactsDir = join(root, "devnet", "artifacts");
const abisDir = join(root, "abis");

export type Artifact = {
  contractName: string;
  abi: readonly unknown[];
  bytecode: `0x${string}`;
  /** Where each state variable lives (solc's storageLayout): the slot a test names (a lying RPC's) is found here. */
  storage: StorageVariable[];
};

/** A state variable as solc lays it out: its slot, its byte offset in the slot, its size in bytes. */
export type StorageVariable = { label: string; slot: string; offset: number; bytes: number; type: string };

export const SOLC_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  // No metadata hash in the bytecode: the build is reproducible byte for byte.
  metadata: { bytecodeHash: "none", appendCBOR: false },
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "storageLayout"] } },
} as const;

/** `KUSDPSM` → `kusdpsm`, `KerneVault` → `kerneVault`, `EVKVault` → `evkVault`. */
export function abiExportName(contractName: string): string {
  const head = contractName.match(/^[A-Z0-9]+(?=[A-Z][a-z]|$)/)?.[0];
  const camel = head
    ? head.toLowerCase() + contractName.slice(head.length)
    : contractName[0]!.toLowerCase() + contractName.slice(1);
  return `${camel}Abi`;
}

function findImport(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(path), "utf8") };
  } catch {
    return { error: `not found: ${path}` };
  }
}

/** Base's proof system (dispute game factory, game, anchor registry, message passer), in a folder of its own. */
const PROOF_CONTRACTS_DIR = "proofs";

function solidityFiles(dir: string): string[] {
  return readdirSync(join(contractsDir, dir))
    .filter((f) => f.endsWith(".sol"))
    .sort()
    .map((f) => (dir === "." ? f : `${dir}/${f}`));
}

export function compileContracts(): Artifact[] {
  const solc = require("solc");
  const sources: Record<string, { content: string }> = {};
  for (const file of [...solidityFiles("."), ...solidityFiles(PROOF_CONTRACTS_DIR)]) {
    sources[file] = { content: readFileSync(join(contractsDir, file), "utf8") };
  }
  const output = JSON.parse(
    solc.compile(JSON.stringify({ language: "Solidity", sources, settings: SOLC_SETTINGS }), {
      import: findImport,
    }),
  );
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"));
  }
  const artifacts: Artifact[] = [];
  for (const file of Object.keys(sources)) {
    for (const [contractName, out] of Object.entries<any>(output.contracts[file] ?? {})) {
      // Interfaces declared beside a contract have no bytecode and get no artifact.
      if (!out.evm.bytecode.object) continue;
      artifacts.push({
        contractName,
        abi: out.abi,
        bytecode: `0x${out.evm.bytecode.object}`,
        storage: storageOf(out.storageLayout),
      });
    }
  }
  return artifacts.sort((a, b) => a.contractName.localeCompare(b.contractName));
}

/** solc's storageLayout, each variable with its type's size (the type table is not kept). */
function storageOf(layout: {
  storage: { label: string; slot: string; offset: number; type: string }[];
  types: Record<string, { label: string; numberOfBytes: string }> | null;
}): StorageVariable[] {
  return layout.storage.map((v) => ({
    label: v.label,
    slot: v.slot,
    offset: v.offset,
    bytes: Number(layout.types?.[v.type]?.numberOfBytes ?? 32),
    type: layout.types?.[v.type]?.label ?? v.type,
  }));
}

/**
 * EAS and its SchemaRegistry, as the published package builds them (@ethereum-attestation-service/
 * eas-contracts): their ABIs for the service and the verifier, which anchor statements through the
 * predeploys Base has (packages/core/src/network/eas.ts). The devnet runs the package's own creation code.
 */
const EAS_ABI_FILE = join(root, "packages", "core", "src", "network", "eas-abi.ts");

export function easArtifact(name: "EAS" | "SchemaRegistry"): { abi: readonly unknown[]; bytecode: `0x${string}` } {
  return JSON.parse(
    readFileSync(
      require.resolve(`@ethereum-attestation-service/eas-contracts/artifacts/contracts/${name}.sol/${name}.json`),
      "utf8",
    ),
  );
}

function renderEasAbi(): string {
  const abi = (name: "EAS" | "SchemaRegistry") => JSON.stringify(easArtifact(name).abi, null, 2);
  return `// Generated by devnet/build.ts from @ethereum-attestation-service/eas-contracts' artifacts. Do not edit.\nexport const easAbi = ${abi("EAS")} as const;\n\nexport const schemaRegistryAbi = ${abi("SchemaRegistry")} as const;\n`;
}

/**
 * Contracts that production code runs deployless (their creation code sent with a call): their
 * abis/ module also exports the bytecode (imported from that module; the index stays ABIs only).
 */
const DEPLOYLESS = new Set(["Aggregate3"]);

export function renderArtifactFiles(artifacts: Artifact[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const a of artifacts) {
    files.set(join(artifactsDir, `${a.contractName}.json`), `${JSON.stringify(a, null, 2)}\n`);
    const bytecode = DEPLOYLESS.has(a.contractName)
      ? `\nexport const ${abiExportName(a.contractName).replace(/Abi$/, "Bytecode")} = "${a.bytecode}" as const;\n`
      : "";
    files.set(
      join(abisDir, `${a.contractName}.ts`),
      `// Generated by devnet/build.ts from devnet/contracts. Do not edit.\nexport const ${abiExportName(a.contractName)} = ${JSON.stringify(a.abi, null, 2)} as const;\n${bytecode}`,
    );
  }
  files.set(EAS_ABI_FILE, renderEasAbi());
  files.set(
    join(abisDir, "index.ts"),
    `// Generated by devnet/build.ts. Do not edit.\n${artifacts
      .map((a) => `export { ${abiExportName(a.contractName)} } from "./${a.contractName}.js";`)
      .join("\n")}\n`,
  );
  return files;
}

/** Paths whose committed content differs from a fresh build (empty when up to date). */
export function staleArtifactFiles(): string[] {
  const stale: string[] = [];
  for (const [path, content] of renderArtifactFiles(compileContracts())) {
    if (!existsSync(path) || readFileSync(path, "utf8") !== content) stale.push(path);
  }
  return stale;
}

function main() {
  if (process.argv.includes("--check")) {
    const stale = staleArtifactFiles();
    if (stale.length > 0) {
      console.error(`stale artifacts (run npm run build:contracts):\n  ${stale.join("\n  ")}`);
      process.exit(1);
    }
    console.log("artifacts are up to date");
    return;
  }
  mkdirSync(artifactsDir, { recursive: true });
  mkdirSync(abisDir, { recursive: true });
  const files = renderArtifactFiles(compileContracts());
  for (const [path, content] of files) writeFileSync(path, content);
  console.log(`wrote ${files.size} files`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
