/**
 * The `kusd-verify` CLI: in-process through runVerify (files injected, a local HTTP server for
 * URL mode), and once as a real child process through the bin, as a user would run it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { signPayload, signSignerBinding } from "@kusd/core";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetKey } from "../../devnet/keys.js";
import { prettyJsonText, runVerify, type VerifyIo } from "../../packages/verify/src/node.js";
import { operatorStatementExample } from "../helpers/shared-reference.js";

const root = join(import.meta.dirname, "..", "..");
const reference = operatorStatementExample();
const exampleText = reference?.text ?? "{}";
const example = reference?.json ?? {};
const exampleSigner = "0x09a2780ac8Be6D5d2d1F85A8D92b09D40C9CA37e";

const operator = privateKeyToAccount(devnetKey("test:cli-operator").privateKey);
const attester = privateKeyToAccount(devnetKey("test:cli-attester").privateKey);
const mallory = privateKeyToAccount(devnetKey("test:cli-mallory").privateKey);
const rotation = 1_786_579_200; // 2026-08-13T00:00:00Z

/** runVerify over an in-memory set of files; any other path fails like a missing file. */
function withFiles(files: Record<string, unknown>, extra: VerifyIo = {}): VerifyIo {
  return {
    ...extra,
    readFile: async (path) => {
      const content = files[path];
      if (content === undefined) throw Object.assign(new Error(`ENOENT: no such file ${path}`), { code: "ENOENT" });
      return typeof content === "string" ? content : JSON.stringify(content, null, 2);
    },
  };
}

/** Changes one character of the published payload, keeping it valid JSON. */
function oneByteChanged(): Record<string, string> {
  const tampered = example.signed_payload_canonical!.replace("117.735154", "117.735155");
  expect(tampered).not.toBe(example.signed_payload_canonical);
  return { ...example, signed_payload_canonical: tampered };
}

describe.runIf(reference)("kusd-verify on the operator's real statement", () => {
  const io = withFiles({ "ex.json": exampleText });

  it("accepts it with its signer pinned and freshness off", async () => {
    const { exitCode, output } = await runVerify(["ex.json", "--signer", exampleSigner, "--no-freshness"], io);
    expect(exitCode).toBe(0);
    expect(output).toMatch(/^VERIFIED/);
    expect(output).toContain(`recovered signer: ${exampleSigner}`);
    expect(output).toContain("signed at: 2026-06-30T15:49:07.000Z (unix 1782834547)");
    // The payload is shown as signed: JSON.parse would print 4.874515519514120e+36 here.
    expect(output).toContain('"total_supply_wei": 4874515519514120218728830628937904000');
    expect(output).toContain("not covered by the signature: status, schema_version");
  });

  it("accepts a lowercase pinned address and several pinned signers", async () => {
    const args = ["ex.json", "--signer", mallory.address, "--signer", exampleSigner.toLowerCase(), "--no-freshness"];
    expect((await runVerify(args, io)).exitCode).toBe(0);
  });

  it("rejects it when one byte of signed_payload_canonical changes", async () => {
    const { exitCode, output } = await runVerify(
      ["t.json", "--signer", exampleSigner, "--no-freshness"],
      withFiles({ "t.json": oneByteChanged() }),
    );
    expect(exitCode).toBe(1);
    expect(output).toMatch(/^NOT VERIFIED/);
    expect(output).toMatch(/FAIL\s+hash/);
    expect(output).not.toContain("signed payload:");
  });

  it("rejects it when attestation_hash changes", async () => {
    const hash = example.attestation_hash!;
    const changed = { ...example, attestation_hash: hash.slice(0, -1) + (hash.endsWith("f") ? "e" : "f") };
    const { exitCode, output } = await runVerify(
      ["t.json", "--signer", exampleSigner, "--no-freshness"],
      withFiles({ "t.json": changed }),
    );
    expect(exitCode).toBe(1);
    expect(output).toMatch(/FAIL\s+hash/);
  });

  it("rejects a wrong pinned signer", async () => {
    const { exitCode, output } = await runVerify(["ex.json", "--signer", mallory.address, "--no-freshness"], io);
    expect(exitCode).toBe(1);
    expect(output).toMatch(/FAIL\s+authorised signer/);
  });

  it("rejects it with the default freshness check (it is months old)", async () => {
    expect((await runVerify(["ex.json", "--signer", exampleSigner], io)).exitCode).toBe(1);
  });

  it("--json prints one object with the payload exactly as signed", async () => {
    const { exitCode, output } = await runVerify(
      ["ex.json", "--signer", exampleSigner, "--no-freshness", "--json"],
      io,
    );
    expect(exitCode).toBe(0);
    const parsed = JSON.parse(output) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["verified", "checks", "recovered", "signedAt", "payload"]);
    expect(parsed).toMatchObject({ verified: true, recovered: exampleSigner, signedAt: 1782834547 });
    expect(output).toContain(`"payload":${example.signed_payload_canonical}}`);

    const failed = await runVerify(
      ["t.json", "--signer", exampleSigner, "--no-freshness", "--json"],
      withFiles({ "t.json": oneByteChanged() }),
    );
    expect(failed.exitCode).toBe(1);
    expect(JSON.parse(failed.output)).toMatchObject({ verified: false, payload: null });
  });

  it("finds an artifact nested in a wrapper, and refuses two", async () => {
    const nested = withFiles({
      "n.json": { ok: true, data: { attestation: example } },
      "two.json": { a: example, b: example },
    });
    const one = await runVerify(["n.json", "--signer", exampleSigner, "--no-freshness"], nested);
    expect(one.exitCode).toBe(0);
    expect(one.output).toContain("artifact found at $.data.attestation");
    const two = await runVerify(["two.json", "--signer", exampleSigner, "--no-freshness"], nested);
    expect(two.exitCode).toBe(1);
    expect(two.output).toContain("more than one signed artifact");
  });

  it("a document that is not JSON, or holds no artifact, is not verified (exit 1)", async () => {
    const files = withFiles({ "bad.json": "{not json", "empty.json": { hello: 1 }, "array.json": "[1,2]" });
    for (const file of ["bad.json", "empty.json", "array.json"]) {
      expect((await runVerify([file, "--signer", exampleSigner, "--no-freshness"], files)).exitCode).toBe(1);
    }
  });
});

describe("kusd-verify freshness", () => {
  it("accepts a fresh artifact and rejects a stale one (default and --max-age)", async () => {
    const now = 1_790_000_000;
    const fresh = await signPayload(attester, { timestamp: now - 600, psm_solvency_ratio: 1.001 });
    const stale = await signPayload(attester, { timestamp: now - 7201, psm_solvency_ratio: 1.001 });
    const io = withFiles({ "fresh.json": fresh, "stale.json": stale }, { now });
    const pin = ["--signer", attester.address];
    expect((await runVerify(["fresh.json", ...pin], io)).exitCode).toBe(0);
    const staleRun = await runVerify(["stale.json", ...pin], io);
    expect(staleRun.exitCode).toBe(1);
    expect(staleRun.output).toMatch(/FAIL\s+fresh\s+age 7201 s, limit 7200 s/);
    expect((await runVerify(["stale.json", ...pin, "--max-age", "8000"], io)).exitCode).toBe(0);
    expect((await runVerify(["fresh.json", ...pin, "--max-age", "300"], io)).exitCode).toBe(1);
    expect((await runVerify(["stale.json", ...pin, "--no-freshness"], io)).exitCode).toBe(0);
  });
});

describe("kusd-verify with a signer binding", () => {
  let files: VerifyIo;
  beforeAll(async () => {
    const binding = await signSignerBinding(operator, attester.address, rotation);
    const forged = await signSignerBinding(mallory, attester.address, rotation);
    const before = rotation - 3600;
    const after = rotation + 3600;
    files = withFiles({
      "binding.json": binding,
      "forged.json": forged,
      "early-by-operator.json": await signPayload(operator, { timestamp: before, psm_solvency_ratio: 1.001 }),
      "late-by-attester.json": await signPayload(attester, { timestamp: after, psm_solvency_ratio: 1.001 }),
      "early-by-attester.json": await signPayload(attester, { timestamp: before, psm_solvency_ratio: 1.001 }),
      "late-by-operator.json": await signPayload(operator, { timestamp: after, psm_solvency_ratio: 1.001 }),
    });
  });
  const run = (artifact: string, binding = "binding.json", op: string = operator.address) =>
    runVerify([artifact, "--binding", binding, "--operator", op, "--no-freshness"], files);

  it("accepts the operator before valid_from and the attestation key after it", async () => {
    const early = await run("early-by-operator.json");
    expect(early.exitCode).toBe(0);
    expect(early.output).toMatch(/ok\s+binding\s+operator/);
    expect((await run("late-by-attester.json")).exitCode).toBe(0);
  });

  it("rejects swapped signers", async () => {
    expect((await run("early-by-attester.json")).exitCode).toBe(1);
    expect((await run("late-by-operator.json")).exitCode).toBe(1);
  });

  it("rejects everything when the binding is not signed by the pinned operator", async () => {
    for (const artifact of ["early-by-operator.json", "late-by-attester.json"]) {
      const forged = await run(artifact, "forged.json");
      expect(forged.exitCode).toBe(1);
      expect(forged.output).toMatch(/FAIL\s+binding authorised signer/);
      // The real binding pinned to the wrong operator fails the same way.
      expect((await run(artifact, "binding.json", mallory.address)).exitCode).toBe(1);
    }
  });

  it("a missing binding file is an I/O error (exit 2)", async () => {
    expect((await run("late-by-attester.json", "nope.json")).exitCode).toBe(2);
  });
});

describe("kusd-verify usage and I/O errors (exit 2)", () => {
  const io = withFiles({ "ex.json": exampleText });
  const cases: [string, string[]][] = [
    ["no arguments", []],
    ["no trust source", ["ex.json", "--no-freshness"]],
    ["a malformed address", ["ex.json", "--signer", "0x1234", "--no-freshness"]],
    ["a wrong checksum", ["ex.json", "--signer", exampleSigner.replace("a", "A"), "--no-freshness"]],
    ["both --max-age and --no-freshness", ["ex.json", "--signer", exampleSigner, "--max-age", "60", "--no-freshness"]],
    ["a bad --max-age", ["ex.json", "--signer", exampleSigner, "--max-age", "1h"]],
    [
      "--signer and --binding together",
      ["ex.json", "--signer", exampleSigner, "--binding", "b.json", "--operator", exampleSigner],
    ],
    ["--binding without --operator", ["ex.json", "--binding", "b.json"]],
    ["--operator without --binding", ["ex.json", "--operator", exampleSigner]],
    ["an unknown option", ["ex.json", "--singer", exampleSigner]],
    ["two artifacts", ["ex.json", "ex.json", "--signer", exampleSigner]],
  ];
  it.each(cases)("%s", async (_name, argv) => {
    const { exitCode, output } = await runVerify(argv, io);
    expect(exitCode).toBe(2);
    expect(output).toContain("--help");
  });

  it("usage errors come back as JSON with --json", async () => {
    const { exitCode, output } = await runVerify(["ex.json", "--json"], io);
    expect(exitCode).toBe(2);
    expect(JSON.parse(output)).toMatchObject({ verified: false, error: { type: "UsageError" } });
  });

  it("--help prints the usage with exit 0", async () => {
    const { exitCode, output } = await runVerify(["--help"]);
    expect(exitCode).toBe(0);
    expect(output).toContain("Usage: kusd-verify");
  });

  it("a missing file is exit 2 (real file system)", async () => {
    const { exitCode, output } = await runVerify([
      join(tmpdir(), `kusd-verify-missing-${process.pid}.json`),
      "--signer",
      exampleSigner,
    ]);
    expect(exitCode).toBe(2);
    expect(output).toContain("cannot read");
  });
});

describe.runIf(reference)("kusd-verify on a URL", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/api/por/signed") {
        res.writeHead(200, { "content-type": "application/json" }).end(exampleText);
      } else if (req.url === "/hang") {
        // Never answers: the fetch timeout must end the run.
      } else {
        res.writeHead(500).end("boom");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("verifies a served artifact (exit 0)", async () => {
    const { exitCode, output } = await runVerify([
      `${base}/api/por/signed`,
      "--signer",
      exampleSigner,
      "--no-freshness",
    ]);
    expect(exitCode).toBe(0);
    expect(output).toContain(`VERIFIED: ${base}/api/por/signed`);
  });

  it("a 500 is exit 2", async () => {
    const { exitCode, output } = await runVerify([`${base}/broken`, "--signer", exampleSigner, "--no-freshness"]);
    expect(exitCode).toBe(2);
    expect(output).toContain("HTTP 500");
  });

  it("a server that never answers times out with exit 2", async () => {
    const { exitCode, output } = await runVerify([`${base}/hang`, "--signer", exampleSigner, "--no-freshness"], {
      fetchTimeoutMs: 300,
    });
    expect(exitCode).toBe(2);
    expect(output).toContain("no complete response within 300 ms");
  });

  it("an unreachable host is exit 2", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await runVerify([`http://127.0.0.1:${port}/x`, "--signer", exampleSigner])).exitCode).toBe(2);
  });
});

describe("prettyJsonText", () => {
  it("re-indents without touching literals, strings or empty containers", () => {
    const text = '{"a":[],"b":{},"c":"x,{:}\\"y","d":[1.0,2e+40]}';
    expect(JSON.parse(prettyJsonText(text))).toEqual(JSON.parse(text));
    expect(prettyJsonText(text)).toBe(
      '{\n  "a": [],\n  "b": {},\n  "c": "x,{:}\\"y",\n  "d": [\n    1.0,\n    2e+40\n  ]\n}',
    );
  });
});

describe.runIf(reference)("the kusd-verify bin as a child process", () => {
  const run = promisify(execFile);
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kusd-verify-"));
    writeFileSync(join(dir, "statement.json"), exampleText);
    writeFileSync(join(dir, "tampered.json"), JSON.stringify(oneByteChanged(), null, 2));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const exec = async (file: string) => {
    try {
      const { stdout } = await run(process.execPath, [
        join(root, "packages", "verify", "bin", "kusd-verify.mjs"),
        join(dir, file),
        "--signer",
        exampleSigner,
        "--no-freshness",
      ]);
      return { code: 0, stdout };
    } catch (error) {
      const e = error as { code?: number; stdout?: string };
      return { code: e.code, stdout: e.stdout ?? "" };
    }
  };

  it("exits 0 on the real statement and 1 on a tampered copy", async () => {
    const ok = await exec("statement.json");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^VERIFIED/);
    const tampered = await exec("tampered.json");
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(/^NOT VERIFIED/);
  });
});
