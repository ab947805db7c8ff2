/**
 * kusd-doctor's command line where no RPC is asked: help, usage errors, a configuration that
 * cannot be loaded, and URL redaction. Runs against a chain are in test/e2e/doctor.test.ts.
 */
import { describe, expect, it } from "vitest";
import { redactRpcUrl, runDoctorCli } from "./cli.js";
import type { DoctorInput } from "./types.js";

const input = async (): Promise<DoctorInput> => ({
  chainIds: { base: 8453, ethereum: 1 },
  contracts: [],
  feeds: [],
  anchorSigner: null,
  ethGetLogsBlockRange: null,
});
/** Never contacted: each case ends before the doctor asks an RPC anything. */
const UNUSED_RPC = "http://rpc.unused.invalid";

describe("kusd-doctor's command line", () => {
  it("exits 0 with the usage on --help, and 2 on a usage error", async () => {
    const loadInput = async () => {
      throw new Error("--help must not load the configuration");
    };
    for (const flag of ["--help", "-h"]) {
      const { exitCode, output } = await runDoctorCli([flag], {}, loadInput);
      expect(exitCode).toBe(0);
      expect(output).toMatch(/^Usage: kusd-doctor/);
    }
    expect((await runDoctorCli([], {}, input)).exitCode).toBe(2);
    expect((await runDoctorCli(["--rpc-url", "ws://x"], {}, input)).exitCode).toBe(2);
    const unknown = await runDoctorCli(["--rpc", "http://x"], {}, input);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.output).toContain("Usage: kusd-doctor");
  });

  it("exits 2 when the configuration cannot be loaded", async () => {
    const { exitCode, output } = await runDoctorCli(["--rpc-url", UNUSED_RPC], {}, async () => {
      throw new Error("PONDER_RPC_URL_1 is required when KUSD_NETWORK=base");
    });
    expect(exitCode).toBe(2);
    expect(output).toBe("error: PONDER_RPC_URL_1 is required when KUSD_NETWORK=base\n");
  });

  it("never prints a provider URL's key", () => {
    expect(redactRpcUrl("https://base-mainnet.g.alchemy.com/v2/SECRETKEY")).toBe(
      "https://base-mainnet.g.alchemy.com/…",
    );
    expect(redactRpcUrl("https://rpc.example/?apikey=SECRET")).toBe("https://rpc.example/…");
    expect(redactRpcUrl("http://127.0.0.1:8545")).toBe("http://127.0.0.1:8545");
  });
});
