/**
 * `npm run test:fidelity`: our devnet contracts against the operator's verified sources, in one
 * lockstep scenario on one anvil. Needs ../shared beside the project; `npm test` never runs it.
 */

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runFidelity } from "./run-fidelity.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
// Waits for the pipe to take each chunk: a multi-megabyte table must not be cut when the worker exits.
const print = (text: string) => new Promise<void>((done) => process.stdout.write(`${text}\n`, () => done()));

describe("devnet contracts vs the operator's deployed sources", () => {
  it("behave identically through the lockstep scenario", async () => {
    const report = await runFidelity({
      projectRoot,
      log: (line) => void print(line),
      reportPath: process.env.KUSD_FIDELITY_REPORT,
    });
    await print(readFileSync(report.reportPath, "utf8"));
    await print(`report written to ${report.reportPath}`);
    expect(report.scenarioErrors, "the reference must do what the scenario says (else the scenario is wrong)").toEqual(
      [],
    );
    expect(
      report.failures.length,
      `${report.failures.length} compared items differ or were skipped; see ${report.reportPath}`,
    ).toBe(0);
  });
});
