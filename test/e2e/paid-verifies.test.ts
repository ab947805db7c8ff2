/**
 * What we sell verifies, or is not sold. A statement signed while the API served one site URL is
 * bought after a restart under another (same databases): kusd-buy verifies it against the binding
 * the new host serves (the statement names the binding by hash, not by the old host) and exactly
 * one settlement of 0.25 USDC happens. Then the stored statement is altered on disk: the gateway's
 * own verifier refuses it with 503 artifact_unverifiable naming the failed check, and the payer's
 * and recipient's balances (read from the chain) do not move. Runs on the PGlite pass only (two
 * API starts, ~90 s): the verifier and the binding are the same on either database; the
 * store's PostgreSQL path runs in paid.test.ts and paid-crash.test.ts.
 */
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { type Address, getAddress, parseAbiItem } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runBuy } from "../../packages/buy/src/index.js";
import { runVerify } from "../../packages/verify/src/node.js";
import { type OwnIndexer, ownIndexers } from "../helpers/own-indexer.js";
import { fundedAgent, usdcOf as usdcBalance } from "../helpers/payment.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const USDC = getAddress(s.addr("usdc"));
const recipient = getAddress(s.deployment.payments.recipient);
const operator = getAddress(s.deployment.signers.operator);
const own = ownIndexers("paid-verifies");
// One statement for the whole file: a restart must not re-issue it under the new URL.
const env = { KUSD_STATEMENT_INTERVAL_SECONDS: "86400" };

const usdcOf = (a: Address) => usdcBalance(s, a);
const transfersTo = async (to: Address, fromBlock: bigint) =>
  s.client.getLogs({
    address: USDC,
    event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
    args: { to },
    fromBlock,
    toBlock: "latest",
  });

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let api: OwnIndexer | null = null;
/** (Re)starts the API on the same databases, under a new port and so a new site URL. */
async function restart(): Promise<string> {
  await api?.indexer.stop();
  api = await own.start("resite", { env });
  const url = api.indexer.url;
  await until("a statement to sell", async () => (await fetch(`${url}/paid/reserves`)).status === 402);
  return url;
}

const buyReserves = (url: string, key: string) =>
  runBuy(
    [
      "reserves",
      "--gateway",
      `${url}/paid`,
      "--max-usd",
      "0.25",
      "--binding",
      `${url}/api/por/signer-registry`,
      "--operator",
      operator,
    ],
    { ...process.env, KUSD_AGENT_KEY: key },
  );

/** Rewrites the stored statement's signed bytes (one digit), as a corrupted disk or a bad migration would. */
async function alterStoredStatement(store: OwnIndexer["store"]) {
  const alter = (artifact: string) => {
    const a = JSON.parse(artifact) as { signed_payload_canonical: string };
    a.signed_payload_canonical = a.signed_payload_canonical.replace(
      /"outstanding_kusd":(\d)/,
      (_m, d: string) => `"outstanding_kusd":${(Number(d) + 1) % 10}`,
    );
    return JSON.stringify(a);
  };
  const table = `"${store.schema}".signed_statement`;
  if (store.databaseUrl) {
    const sql = postgres(store.databaseUrl, { onnotice: () => {} });
    for (const row of await sql.unsafe<{ id: number; artifact: string }[]>(`SELECT id, artifact FROM ${table}`)) {
      await sql.unsafe(`UPDATE ${table} SET artifact = $1 WHERE id = $2`, [alter(row.artifact), row.id]);
    }
    await sql.end();
  } else {
    const db = new PGlite(store.directory);
    for (const row of (await db.query<{ id: number; artifact: string }>(`SELECT id, artifact FROM ${table}`)).rows) {
      await db.query(`UPDATE ${table} SET artifact = $1 WHERE id = $2`, [alter(row.artifact), row.id]);
    }
    await db.close();
  }
}

/** The site URL an API publishes under (its canonicalEndpoint's origin). */
const siteOf = async (url: string) =>
  (
    (await (await fetch(`${url}/api/por`)).json()) as { attestation: { canonicalEndpoint: string } }
  ).attestation.canonicalEndpoint.replace(/\/api\/por$/, "");

let firstSite: string;
let statement: { attestation_hash: string; signed_payload_canonical: string };

const onThisPass = inject("database") === "pglite";

beforeAll(async () => {
  if (!onThisPass) return;
  const url = await restart();
  firstSite = await siteOf(url);
  statement = await (await fetch(`${url}/api/por/signed`)).json();
}, 240_000);
afterAll(async () => {
  await own.cleanup();
});

describe.runIf(onThisPass)("a statement signed under another site URL", () => {
  it("is sold after a restart under a new URL, verified by kusd-buy, and settled once", async () => {
    const signedUnder = JSON.parse(statement.signed_payload_canonical) as {
      signer_binding: string;
      signer_binding_hash: string;
    };
    expect(signedUnder.signer_binding).toBe(`${firstSite}/api/por/signer-registry`);

    const url = await restart();
    expect(await siteOf(url)).not.toBe(firstSite);
    // The same statement is served: it was not re-issued under the new URL.
    expect(
      ((await (await fetch(`${url}/api/por/signed`)).json()) as { attestation_hash: string }).attestation_hash,
    ).toBe(statement.attestation_hash);
    // The binding it names is served by the new host, under its hash.
    const byHash = await fetch(`${url}/api/por/signer-registry/${signedUnder.signer_binding_hash}`);
    expect(byHash.status).toBe(200);
    expect(((await byHash.json()) as { attestation_hash: string }).attestation_hash.toLowerCase()).toBe(
      signedUnder.signer_binding_hash,
    );

    const agent = await fundedAgent(s, "paid-verifies-restart", 1);
    const from = await s.client.getBlockNumber({ cacheTime: 0 });
    const [payer0, recipient0] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    const bought = await buyReserves(url, agent.key);
    expect(bought.output).toMatch(/\nVERIFIED\n/);
    expect(bought.exitCode, bought.output).toBe(0);
    // The unsigned copy of the binding's place is the signed one, not the new host's.
    expect(bought.output).toContain(`"signer_binding": "${firstSite}/api/por/signer-registry"`);
    expect(bought.output).toMatch(/ok +binding named/);
    const [payer1, recipient1] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    expect(payer0 - payer1).toBe(250_000n);
    expect(recipient1 - recipient0).toBe(250_000n);
    const settlements = (await transfersTo(recipient, from)).filter((l) => getAddress(l.args.from!) === agent.address);
    expect(settlements).toHaveLength(1);
    // The run as a reader sees it, for the record (CI's log keeps it).
    console.log(
      [
        `restart-and-buy: signed under ${firstSite}, bought from ${url}`,
        bought.output.trim(),
        `settlements to ${recipient} from the payer: ${settlements.length} (${settlements.map((l) => `${l.args.value} raw USDC in ${l.transactionHash}`).join(", ")})`,
        `payer ${payer0} -> ${payer1}, recipient ${recipient0} -> ${recipient1} (raw USDC, read from the chain)`,
      ].join("\n"),
    );

    // kusd-verify follows the binding by its hash on the new host as well.
    const verified = await runVerify([
      `${url}/api/por/signed`,
      "--binding",
      `${url}/api/por/signer-registry/${signedUnder.signer_binding_hash}`,
      "--operator",
      operator,
    ]);
    expect(verified.exitCode, verified.output).toBe(0);
  });

  it("an altered stored statement is refused with 503 artifact_unverifiable, and nothing is charged", async () => {
    await api?.indexer.stop();
    await alterStoredStatement(api!.store);
    const url = await restart();

    const agent = await fundedAgent(s, "paid-verifies-altered", 1);
    const from = await s.client.getBlockNumber({ cacheTime: 0 });
    const [payer0, recipient0] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    const bought = await buyReserves(url, agent.key);
    expect(bought.exitCode, bought.output).toBe(2);
    expect(bought.output).toContain("503");
    expect(bought.output).toContain("artifact_unverifiable");
    expect(bought.output).toMatch(/"name":"hash","ok":false/);
    expect(await usdcOf(agent.address)).toBe(payer0);
    expect(await usdcOf(recipient)).toBe(recipient0);
    expect(await transfersTo(recipient, from)).toHaveLength(0);
    console.log(`altered statement: ${bought.output.trim()}\npayer and recipient balances unchanged; no settlement`);
  });
});
