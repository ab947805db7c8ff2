/**
 * The mainnet-shaped rehearsal: the faithful contracts at their real Base addresses on a chain
 * presented at Base's real heights, indexed by the unmodified `base` configuration (only its RPC
 * URLs, the registry source, the getLogs range kusd-doctor recommends and the venue pointed at
 * the rehearsal), on PGlite or, when DATABASE_URL is set, on a PostgreSQL database of its own.
 * Every figure checked is compared with a direct read of the rehearsal chain.
 */
import { execFile } from "node:child_process";
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { BASE_OPERATOR_REGISTRY_FILE } from "@kusd/config/node";
import { verifyRegistryDocument } from "@kusd/core";
import postgres from "postgres";
import { type Address, createPublicClient, erc20Abi, formatUnits, http, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MainnetRehearsal, startMainnetRehearsal } from "../../devnet/rehearsal/index.js";
import { type Indexer, startIndexer } from "../../stack/indexer.js";
import { freePort } from "../helpers/ports.js";

const run = promisify(execFile);
let r: MainnetRehearsal;
let indexer: Indexer;
let dir: string;
let database: { url: string; drop(): Promise<void> } | null = null;
let doctor: {
  ok: boolean;
  rows: { check: string; subject: string; result: string; detail: string }[];
  recommended: { ethGetLogsBlockRange: number | null };
};

const client = () => createPublicClient({ transport: http(r.baseRpcUrl) });
const get = async (path: string) => {
  const res = await fetch(`${indexer.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as any;
};
/** kusd-doctor as a user runs it: the bin, in its own process, on the environment given. */
const runDoctor = (env: Record<string, string>) =>
  run(process.execPath, ["bin/kusd-doctor.mjs", "--json"], { env: { ...process.env, ...env } }).then(
    (x) => ({ code: 0, out: JSON.parse(x.stdout) }),
    (e: { code: number; stdout: string }) => ({ code: e.code, out: JSON.parse(e.stdout) }),
  );

/** A PostgreSQL database of the rehearsal's own: its RPC cache must not meet the devnet's (same chain id). */
async function ownDatabase(url: string) {
  const name = `kusd_rehearsal_${process.pid}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name}`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    drop: async () => {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    },
  };
}

/**
 * On PostgreSQL only (CI runs `npm test` on both): a mainnet deployment indexes into PostgreSQL,
 * the rehearsal tests the base configuration rather than the database, and on PGlite it takes
 * five minutes of CI's 25 (290 s against 170 s on PostgreSQL, measured alone).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

beforeAll(async () => {
  if (!onPostgres) return;
  dir = mkdtempSync(join(tmpdir(), "kusd-rehearsal-test-"));
  r = await startMainnetRehearsal({ base: await freePort(), ethereum: await freePort(), venue: await freePort() });
  ({ out: doctor } = await runDoctor(r.env));
  if (process.env.DATABASE_URL) database = await ownDatabase(process.env.DATABASE_URL);
  indexer = await startIndexer({
    port: await freePort(),
    network: "env",
    env: {
      ...r.env,
      KUSD_ETH_GET_LOGS_BLOCK_RANGE: String(doctor.recommended.ethGetLogsBlockRange),
      KUSD_STORE_DIR: join(dir, "store"),
    },
    databaseUrl: database?.url,
    pgliteDir: join(dir, "pglite"),
    viewsSchema: "kusd_rehearsal",
    readyTimeoutMs: 900_000,
    // KUSD_TEST_INDEXER_LOG=path keeps this indexer's log too, after the shared one's.
    onOutput: (line) =>
      process.env.KUSD_TEST_INDEXER_LOG && appendFileSync(process.env.KUSD_TEST_INDEXER_LOG, `rehearsal ${line}\n`),
  });
  await indexer.waitForBlock("base", r.facts.headHeight, 300_000);
}, 1_200_000);

afterAll(async () => {
  await indexer?.stop();
  await r?.stop();
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!onPostgres)("the rehearsal chain is Base as the configuration knows it", () => {
  it("answers at Base's heights, with the real creation transactions and no code before a deployment", async () => {
    const c = client();
    expect(await c.getChainId()).toBe(8453);
    expect(Number(await c.getBlockNumber())).toBe(r.facts.headHeight);
    const skUSD = r.network.stakingVaults.skUSD.address;
    // The old estimate started share prices at 48,132,020: skUSD has no code there, and reading
    // it answers 0x, the read that made Ponder retry and then halt the backfill.
    expect(await c.getCode({ address: skUSD, blockNumber: 48_132_020n })).toBeUndefined();
    const before = await c.call({
      to: skUSD,
      data: "0x07a2d13a00000000000000000000000000000000000000000000d3c21bcecceda1000000",
      blockNumber: 48_132_020n,
    });
    expect(before.data).toBeUndefined();
    const receipt = await c.getTransactionReceipt({
      hash: r.network.deployments.find((d) => d.role === "skUSD")!.creationTx!,
    });
    expect(receipt.blockNumber).toBe(48_175_381n);
    expect(receipt.contractAddress).toBe(skUSD);
  });

  it("kusd-doctor passes on every check, and fails when a newer registry file moves a contract", async () => {
    expect(doctor.ok).toBe(true);
    expect(doctor.rows.filter((x) => x.result !== "ok")).toEqual([]);
    for (const d of r.network.deployments)
      expect(
        doctor.rows.some((x) => x.check === "deployment block" && x.subject === d.role),
        d.role,
      ).toBe(true);
    expect(doctor.rows.find((x) => x.check === "feed" && x.subject === "wstETHRate")!.detail).toContain(
      "wstETH-stETH Exchange Rate",
    );

    // The operator's next file names skUSD v1's address for skUSD: the creation transaction the
    // configuration records no longer deployed what sits there.
    const moved = join(dir, "operator-deployments-8453.json");
    const file = JSON.parse(readFileSync(BASE_OPERATOR_REGISTRY_FILE, "utf8"));
    file.contracts.skUSD.address = file.retired.skUSD_v1;
    writeFileSync(moved, JSON.stringify(file));
    const failing = await runDoctor({ ...r.env, KUSD_OPERATOR_REGISTRY_FILE: moved });
    expect(failing.code).toBe(1);
    expect(failing.out.ok).toBe(false);
    const row = failing.out.rows.find((x: any) => x.check === "deployment block" && x.subject === "skUSD");
    expect(row.result).toBe("FAIL");
    // An RPC that answers nothing is no verdict: exit 2.
    const unreachable = await runDoctor({ ...r.env, PONDER_RPC_URL_8453: `http://127.0.0.1:${await freePort()}` });
    expect(unreachable.code).toBe(2);
    copyFileSync(BASE_OPERATOR_REGISTRY_FILE, moved); // leave nothing misleading behind
  });
});

describe.skipIf(!onPostgres)("the base configuration indexes it to head", () => {
  it("/api/stats and /api/por equal direct reads at the indexed head", async () => {
    const c = client();
    const n = r.network;
    const block = BigInt(r.facts.headHeight);
    const stats = await get("/api/stats");
    expect(stats.blockNumber).toBe(r.facts.headHeight);
    const usdcOf = (a: Address) =>
      c.readContract({
        address: n.usdc.address,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [a],
        blockNumber: block,
      });
    const [mint, prev, legacy, supply] = await Promise.all([
      usdcOf(n.psms.psmMint.address),
      usdcOf(n.psms.psmRetiredMint.address),
      usdcOf(n.psms.psmRedeemReserve.address),
      c.readContract({ address: n.kUSD.address, abi: erc20Abi, functionName: "totalSupply", blockNumber: block }),
    ]);
    expect(stats.psmUSDCMint).toBe(Number(formatUnits(mint, 6)));
    expect(stats.psmUSDCPrevMint).toBe(Number(formatUnits(prev, 6)));
    expect(stats.psmUSDCLegacy).toBe(Number(formatUnits(legacy, 6)));
    expect(stats.kusdSupplyWei).toBe(supply.toString());
    expect(mint).toBeGreaterThan(0n); // the story minted on every PSM, and redeemed on the live one

    const por = await get("/api/por");
    expect(por.blockNumber).toBe(r.facts.headHeight);
    const reserves = por.redemptionDepth.byContract.map((x: any) => [x.key, x.reserveUSDC]);
    expect(Object.fromEntries(reserves)).toEqual({
      psmMint: stats.psmUSDCMint,
      psmRetiredMint: stats.psmUSDCPrevMint,
      psmRedeemReserve: stats.psmUSDCLegacy,
    });
    expect(por.solvency.psmSolvencyRatio).toBeCloseTo(stats.psmUSDC / stats.kusdOutstanding, 8);
  });

  it("/api/euler reads the operator's market at its real address", async () => {
    const c = client();
    const block = BigInt(r.facts.headHeight);
    const vaultAbi = parseAbi([
      "function totalAssets() view returns (uint256)",
      "function totalBorrows() view returns (uint256)",
    ]);
    const [supplied, escrowed] = await Promise.all([
      c.readContract({
        address: r.network.lending.lendingUSDC!.address,
        abi: vaultAbi,
        functionName: "totalAssets",
        blockNumber: block,
      }),
      c.readContract({
        address: r.network.lending.lendingEscrowKUSD!.address,
        abi: vaultAbi,
        functionName: "totalAssets",
        blockNumber: block,
      }),
    ]);
    const euler = await get("/api/euler");
    expect(euler.lendingVault.address).toBe("0xe87c294E1139C31770727193e3Be0ccEd73d6AA3");
    expect(euler.lendingVault.totalSupplyUSDCRaw).toBe(supplied.toString());
    expect(euler.escrowVault.totalEscrowedKUSDWei).toBe(escrowed.toString());
  });

  it("/api/apy takes its staking yield from the wstETH / stETH feed's updates, as computed by hand", async () => {
    const apy = await get("/api/apy");
    const now = Math.floor(Date.parse(apy.timestamp) / 1000);
    const seen = r.facts.wstEthRates.filter((x) => x.t >= now - 7.5 * 86_400);
    let sum = 0;
    for (let i = 1; i < seen.length; i++)
      sum += (Number(seen[i]!.rate) / Number(seen[i - 1]!.rate) - 1) * (365 / ((seen[i]!.t - seen[i - 1]!.t) / 86_400));
    expect(seen.length).toBeGreaterThanOrEqual(6);
    expect(apy.lstYields.wstETH).toBeCloseTo(sum / (seen.length - 1), 10);
    expect(apy.sources.stakingSource).toContain(r.network.lsts.wstETH!.address);
  });

  it("uses the verified published registry for the violation rule, and not the forged version", async () => {
    const versions = await get("/api/por/accounts/versions");
    expect(versions.versions.map((v: any) => v.registry_version)).toEqual([1]);
    // The republished version 1 still verifies, predicates re-run on the rehearsal chain.
    const doc = await get("/api/por/accounts");
    const c = client();
    const verdict = await verifyRegistryDocument(
      doc,
      async (to, data, block) => (await c.call({ to: to as Address, data, blockNumber: BigInt(block) })).data ?? "0x",
    );
    expect(verdict.checks.filter((x) => !x.ok)).toEqual([]);
    expect(verdict.verified).toBe(true);

    const { violations } = await get("/api/por/accounts/violations");
    const v = r.facts.violation;
    expect(violations.map((x: any) => [x.from, x.to, x.amountRaw, x.blockNumber, x.registryVersion])).toEqual([
      [v.from, v.to, v.amount.toString(), v.height, 1],
    ]);
    // The forged version 2 lists the receiver: had it been used, this would not be a violation.
    const receipt = await c.getTransactionReceipt({ hash: violations[0].txHash });
    expect(Number(receipt.blockNumber)).toBe(v.height);
  });
});
