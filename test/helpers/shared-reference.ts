/**
 * The operator's reference material in ../shared (CI has it beside the checkout). `npm test`
 * must pass without it: tests that need it run only when it is there, and say so when skipped.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const SHARED_REFERENCE_DIR = join(import.meta.dirname, "..", "..", "..", "shared", "reference", "base-mainnet");

/** The operator's published signed statement, verbatim, or null when ../shared is absent. */
export function operatorStatementExample(): { path: string; text: string; json: Record<string, string> } | null {
  const path = join(SHARED_REFERENCE_DIR, "operator-signed-statement-example.json");
  if (!existsSync(path)) {
    console.warn(`[test] ${path} is absent: tests on the operator's real statement are skipped`);
    return null;
  }
  const text = readFileSync(path, "utf8");
  return { path, text, json: JSON.parse(text) as Record<string, string> };
}
