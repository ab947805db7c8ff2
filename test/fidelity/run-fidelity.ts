/**
 * The whole differential run: compile the operator's sources, deploy both sides on a fresh anvil,
 * compare ABI surfaces, drive the scenario in lockstep, and write the table of every compared
 * item to a report file.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compareAbiSurfaces } from "./abi-compare.js";
import { startFidelityChain } from "./chain.js";
import { foldFailures, Ledger, type Row, renderTable } from "./compare.js";
import { type CompiledReference, compileReferences } from "./compile-reference.js";
import { deployPair, loadDevnetArtifact, type Pair } from "./deploy-pair.js";
import { describeRevert, unionAbi } from "./describe.js";
import { runLockstep } from "./lockstep.js";
import { type FamilyId, operatorRepoDir, REFERENCE_BUNDLES } from "./reference-bundles.js";
import { fidelityScenario } from "./scenario.js";
import type { Section } from "./step.js";

export type FidelityReport = {
  rows: Row[];
  failures: Row[];
  calls: number;
  scenarioErrors: string[];
  reportPath: string;
  durationMs: number;
};

const DEVNET_ARTIFACTS = Object.fromEntries(REFERENCE_BUNDLES.map((b) => [b.family, b.devnetArtifact])) as Record<
  FamilyId,
  string
>;

function compareAbis(ledger: Ledger, references: CompiledReference[], projectRoot: string): void {
  for (const bundle of REFERENCE_BUNDLES) {
    const ref = references.find((r) => r.family === bundle.family);
    const devnet = loadDevnetArtifact(projectRoot, bundle.devnetArtifact);
    const call = `[abi] ${bundle.family}: reference vs ${bundle.devnetArtifact}`;
    if (!ref?.ok || !devnet) {
      const why = [
        !ref?.ok ? `reference: ${ref?.ok === false ? ref.reason : "missing"}` : "",
        !devnet ? `devnet: ${bundle.devnetArtifact}.json missing` : "",
      ];
      ledger.skip(0, call, "abi surface not compared", why.filter(Boolean).join("; "));
      continue;
    }
    for (const d of compareAbiSurfaces(ref.abi, devnet.abi)) ledger.compare(0, call, d.item, d.a, d.b);
  }
}

function header(references: CompiledReference[], pair: Pair, repoDir: string, sections: Section[]): string[] {
  const lines = [
    `operator sources: ${repoDir}`,
    "side A = reference (operator's verified sources), side B = devnet artifacts",
  ];
  for (const section of sections) for (const note of section.notes) lines.push(`[${section.id}] note: ${note}`);
  for (const bundle of REFERENCE_BUNDLES) {
    const ref = references.find((r) => r.family === bundle.family)!;
    lines.push(`${bundle.family}: ${bundle.deployed} <- ${bundle.bundleDir} vs devnet ${bundle.devnetArtifact}`);
    if (!ref.ok) lines.push(`  REFERENCE NOT COMPILED: ${ref.reason}`);
    for (const note of ref.notes) lines.push(`  note: ${note}`);
    for (const side of [pair.A, pair.B]) {
      const why = side.missing[bundle.family];
      if (why) lines.push(`  side ${side.name} (${side.label}) not deployed: ${why}`);
    }
  }
  return lines;
}

export async function runFidelity(opts: {
  projectRoot: string;
  log: (text: string) => void;
  reportPath?: string;
}): Promise<FidelityReport> {
  const started = Date.now();
  // Beside the browser suite's screenshot (test-results/, ignored by git): not a fixed path in the shared temp directory.
  const reportPath = opts.reportPath ?? join(opts.projectRoot, "test-results", "fidelity-report.txt");
  const repoDir = operatorRepoDir(opts.projectRoot);
  if (!existsSync(repoDir)) {
    throw new Error(`the operator's sources are not at ${repoDir} (CI lays out ../shared beside the project)`);
  }
  opts.log(`compiling ${REFERENCE_BUNDLES.length} reference bundles (cached in .cache/fidelity-solc)…`);
  const references = await compileReferences(REFERENCE_BUNDLES, repoDir);
  const ledger = new Ledger();
  const scenarioErrors: string[] = [];
  compareAbis(ledger, references, opts.projectRoot);

  const { chain, anvil } = await startFidelityChain();
  let text: string;
  let failures: Row[];
  let durationMs: number;
  try {
    const allAbis = references.flatMap((r) => (r.ok ? [r.abi] : []));
    const pair = await deployPair(chain, references, DEVNET_ARTIFACTS, opts.projectRoot, (data) =>
      describeRevert(data, unionAbi(allAbis), new Map()),
    );
    const sections = fidelityScenario();
    const head = header(references, pair, repoDir, sections);
    for (const line of head) opts.log(line);
    for (const family of REFERENCE_BUNDLES.map((b) => b.family)) {
      for (const side of [pair.A, pair.B]) {
        const why = side.missing[family];
        if (why) ledger.skip(0, `[deploy] ${family}`, `side ${side.name} not deployed`, why);
      }
    }
    await runLockstep({ chain, pair, ledger, log: opts.log, scenarioErrors }, sections);
    failures = ledger.failures();
    durationMs = Date.now() - started;
    text = [
      ...head,
      "",
      renderTable(ledger.rows),
      "",
      `${ledger.calls} calls per side (${ledger.calls * 2} transactions), ${ledger.rows.length} compared items, ` +
        `${failures.length} not ok, ${(durationMs / 1000).toFixed(1)} s`,
      ...(failures.length > 0
        ? ["", "every row not ok (consecutive repeats of one item folded):", ...foldFailures(ledger.rows)]
        : ["zero differences"]),
      ...(scenarioErrors.length > 0
        ? ["", "SCENARIO ERRORS (the reference did not behave as the scenario states):", ...scenarioErrors]
        : []),
    ].join("\n");
  } finally {
    await anvil.stop();
  }
  mkdirSync(dirname(reportPath), { recursive: true });
  writeFileSync(reportPath, `${text}\n`);
  return { rows: ledger.rows, failures, calls: ledger.calls, scenarioErrors, reportPath, durationMs };
}
