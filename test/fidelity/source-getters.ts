/**
 * `npm run gen:source-getters`: the getters the operator's newest public source names, for the
 * `gaps` of GET /api/risk-status (a getter the source names that the deployed bytecode reverts
 * on). Read from `../shared/reference/base-mainnet/operator-repo/audits/scope/<commit>/src`
 * (the remediation commit, the newest source the operator publishes) and written to
 * `packages/verify/src/read-plan/source-getters.json`, which the risk read plan (the service's and a reader's) reads; `source-getters.test.ts` (fidelity)
 * checks the committed file against a fresh extraction.
 *
 * What counts as a getter: a public state variable of a value type (the compiler generates its
 * getter), a public mapping keyed by address (read with USDC's address), and a public or external
 * view/pure function without parameters. Inherited getters (ERC-20's, AccessControl's) are not
 * named by these files and are not listed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SHARED_REFERENCE_DIR } from "../helpers/shared-reference.js";

export const SOURCE_COMMIT = "98f29e55";
const SOURCE_DIR = `operator-repo/audits/scope/${SOURCE_COMMIT}/src`;
/** Which deployed contracts each source file is the source of (their contract keys). */
const FILES = {
  kUSD: { file: "kUSD.sol", deployedAs: ["kUSD"] },
  KUSDPSM: { file: "KUSDPSM.sol", deployedAs: ["psmMint", "psmRetiredMint"] },
  KerneVault: { file: "KerneVault.sol", deployedAs: ["vaultV2"] },
  skUSD: { file: "skUSD.sol", deployedAs: ["skUSD"] },
} as const;

export const CATALOG_FILE = fileURLToPath(
  new URL("../../packages/verify/src/read-plan/source-getters.json", import.meta.url),
);

/** Comments out, so a commented-out declaration is not read as one. */
const stripComments = (s: string) => s.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");

export function gettersNamedIn(solidity: string): string[] {
  const src = stripComments(solidity);
  const found = new Set<string>();
  const valueType = "(?:bool|u?int\\d*|address|bytes\\d*|I[A-Z]\\w*)";
  for (const m of src.matchAll(
    new RegExp(`^\\s*${valueType}\\s+public\\s+(?:constant\\s+|immutable\\s+)?(\\w+)\\s*[=;]`, "gm"),
  ))
    found.add(`${m[1]}()`);
  for (const m of src.matchAll(
    /^\s*mapping\s*\(\s*address\s*=>\s*(?:bool|u?int\d*|address|bytes\d*)\s*\)\s+public\s+(\w+)\s*;/gm,
  ))
    found.add(`${m[1]}(address)`);
  for (const m of src.matchAll(/function\s+(\w+)\s*\(\s*\)\s*(?:external|public)\b[^{;]*?\b(?:view|pure)\b/g))
    found.add(`${m[1]}()`);
  return [...found].sort();
}

export type SourceGetterCatalog = {
  source: string;
  commit: string;
  generatedBy: string;
  contracts: Record<string, { file: string; deployedAs: readonly string[]; getters: string[] }>;
};

export function extractCatalog(root = SHARED_REFERENCE_DIR): SourceGetterCatalog {
  const contracts = Object.fromEntries(
    Object.entries(FILES).map(([name, f]) => [
      name,
      { ...f, getters: gettersNamedIn(readFileSync(join(root, SOURCE_DIR, f.file), "utf8")) },
    ]),
  );
  return {
    source: `reference/base-mainnet/${SOURCE_DIR}`,
    commit: SOURCE_COMMIT,
    generatedBy: "npm run gen:source-getters",
    contracts,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const catalog = extractCatalog();
  writeFileSync(CATALOG_FILE, `${JSON.stringify(catalog, null, 2)}\n`);
  console.log(
    `${CATALOG_FILE}: ${Object.values(catalog.contracts).reduce((n, c) => n + c.getters.length, 0)} getters from ${catalog.source}`,
  );
}
