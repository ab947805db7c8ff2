/**
 * Compiles the operator's verified bundles with solc-js at the version their metadata names and
 * with exactly their settings (viaIR, optimizer, evmVersion, remappings), each against its own
 * OpenZeppelin copy. viaIR builds take tens of seconds, so results are cached in the OS temp dir
 * keyed by the hash of the whole standard-JSON input, and bundles compile two at a time in
 * worker threads (solc-js is synchronous).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type Abi, type Hex, keccak256, toBytes } from "viem";
import type { FamilyId, ReferenceBundle } from "./reference-bundles.js";

const require = createRequire(import.meta.url);
const SOLC_PACKAGE = "solc-0.8.24";

export type CompiledReference =
  | {
      ok: true;
      family: FamilyId;
      contractName: string;
      abi: Abi;
      bytecode: Hex;
      /** solc's storageLayout: each state variable's slot and offset, by name. */
      storage: Record<string, { slot: string; offset: number }>;
      notes: string[];
    }
  | { ok: false; family: FamilyId; reason: string; notes: string[] };

type Metadata = {
  compiler: { version: string };
  language: string;
  settings: {
    compilationTarget: Record<string, string>;
    evmVersion: string;
    libraries: Record<string, unknown>;
    metadata: Record<string, unknown>;
    optimizer: unknown;
    remappings: string[];
    viaIR?: boolean;
  };
  sources: Record<string, { keccak256: string }>;
};

/** solc output is kept between runs (compiling the references takes most of the suite's time), in the project's ignored .cache/. */
export function defaultCacheDir(): string {
  return join(fileURLToPath(new URL("../..", import.meta.url)), ".cache", "fidelity-solc");
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

// An eval'd worker is CommonJS, so it can require solc by absolute path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const solc = require(workerData.solcPath);
parentPort.postMessage(solc.compile(workerData.input));
`;

function compileInWorker(solcPath: string, input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { solcPath, input } });
    worker.once("message", (out: string) => {
      resolve(out);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

type Prepared =
  | { ok: true; input: string; target: string; contractName: string; metadata: Metadata; notes: string[] }
  | { ok: false; reason: string; notes: string[] };

function prepare(bundle: ReferenceBundle, repoDir: string, solcVersion: string): Prepared {
  const notes = [...bundle.notes];
  const metadataPath = join(repoDir, bundle.bundleDir, "metadata.json");
  if (!existsSync(metadataPath)) return { ok: false, reason: `no metadata.json at ${metadataPath}`, notes };
  const metadata = JSON.parse(readFileSync(metadataPath, "utf8")) as Metadata;
  if (!solcVersion.startsWith(metadata.compiler.version)) {
    return {
      ok: false,
      reason: `metadata names solc ${metadata.compiler.version}, the installed ${SOLC_PACKAGE} is ${solcVersion}`,
      notes,
    };
  }
  const sources: Record<string, { content: string }> = {};
  for (const [key, { keccak256: expected }] of Object.entries(metadata.sources)) {
    const relative = bundle.overrides[key] ?? join(bundle.bundleDir, key);
    const path = join(repoDir, relative);
    if (!existsSync(path))
      return { ok: false, reason: `source ${key} named by metadata.json is missing (${path})`, notes };
    const content = readFileSync(path, "utf8");
    sources[key] = { content };
    if (keccak256(toBytes(content)) !== expected) {
      notes.push(
        bundle.overrides[key]
          ? `${key} taken from ${relative}: differs from the bundle metadata's hash (expected, it is another contract version)`
          : `${key} does NOT match the keccak256 in metadata.json; compiled as it is`,
      );
    }
  }
  const { compilationTarget, remappings, ...settings } = metadata.settings;
  const [target, contractName] = Object.entries(compilationTarget)[0]!;
  const input = JSON.stringify({
    language: metadata.language,
    sources,
    settings: {
      ...settings,
      remappings: remappings.map((r) => r.replace(/^:/, "")),
      outputSelection: { [target]: { [contractName]: ["abi", "evm.bytecode.object", "metadata", "storageLayout"] } },
    },
  });
  return { ok: true, input, target, contractName, metadata, notes };
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<
      string,
      {
        abi: Abi;
        evm: { bytecode: { object: string } };
        metadata: string;
        storageLayout?: { storage: { label: string; slot: string; offset: number }[] };
      }
    >
  >;
};

function metadataVerdict(compiled: string, expected: Metadata, bundle: ReferenceBundle): string {
  const meta = JSON.parse(compiled) as Metadata;
  if (JSON.stringify(canonical(meta)) === JSON.stringify(canonical(expected))) {
    return "compiled metadata is identical to the verified metadata.json (same settings, sources and ABI)";
  }
  const differing = Object.keys(expected.sources).filter(
    (k) => meta.sources[k]?.keccak256 !== expected.sources[k]!.keccak256,
  );
  const settingsSame = JSON.stringify(canonical(meta.settings)) === JSON.stringify(canonical(expected.settings));
  return `compiled metadata differs from ${bundle.bundleDir}/metadata.json: settings ${settingsSame ? "identical" : "DIFFER"}; sources differing: ${differing.join(", ") || "none"}`;
}

export async function compileReferences(
  bundles: readonly ReferenceBundle[],
  repoDir: string,
  cacheDir = defaultCacheDir(),
): Promise<CompiledReference[]> {
  const solcPath = require.resolve(SOLC_PACKAGE);
  const solcVersion: string = require(SOLC_PACKAGE).version();
  mkdirSync(cacheDir, { recursive: true });

  const compileOne = async (bundle: ReferenceBundle): Promise<CompiledReference> => {
    const prepared = prepare(bundle, repoDir, solcVersion);
    if (!prepared.ok) return { ok: false, family: bundle.family, reason: prepared.reason, notes: prepared.notes };
    const key = createHash("sha256").update(solcVersion).update(prepared.input).digest("hex");
    const cachePath = join(cacheDir, `${key}.json`);
    let raw: string;
    if (existsSync(cachePath)) {
      raw = readFileSync(cachePath, "utf8");
    } else {
      raw = await compileInWorker(solcPath, prepared.input);
      writeFileSync(cachePath, raw);
    }
    const output = JSON.parse(raw) as SolcOutput;
    const errors = (output.errors ?? []).filter((e) => e.severity === "error");
    if (errors.length > 0) {
      return {
        ok: false,
        family: bundle.family,
        reason: `solc ${solcVersion} rejected it:\n${errors.map((e) => e.formattedMessage).join("\n")}`,
        notes: prepared.notes,
      };
    }
    const contract = output.contracts?.[prepared.target]?.[prepared.contractName];
    if (!contract?.evm.bytecode.object) {
      return {
        ok: false,
        family: bundle.family,
        reason: `no bytecode for ${prepared.contractName} in the output`,
        notes: prepared.notes,
      };
    }
    return {
      ok: true,
      family: bundle.family,
      contractName: prepared.contractName,
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
      storage: Object.fromEntries(
        (contract.storageLayout?.storage ?? []).map((v) => [v.label, { slot: v.slot, offset: v.offset }]),
      ),
      notes: [...prepared.notes, metadataVerdict(contract.metadata, prepared.metadata, bundle)],
    };
  };

  // Two at a time: the machines have two cores and each viaIR build is single-threaded.
  const results: CompiledReference[] = new Array(bundles.length);
  let next = 0;
  const lane = async () => {
    while (next < bundles.length) {
      const i = next++;
      results[i] = await compileOne(bundles[i]!);
    }
  };
  await Promise.all([lane(), lane()]);
  return results;
}
