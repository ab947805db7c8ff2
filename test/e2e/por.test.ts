/**
 * GET /api/por and /api/stats end to end on the devnet: every figure equals an independent
 * viem read at the report's block (or a hand computation from such reads), every `verifyVia`
 * command run with foundry's cast reproduces its value, a failed read is null, and a venue
 * failure recognises none of the mirror.
 */

import {
  type Address,
  formatUnits,
  getAddress,
  keccak256,
  parseAbiItem,
  stringToHex,
  toFunctionSelector,
  zeroAddress,
} from "viem";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { runPrinted } from "../helpers/cast.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const api = (path: string) => fetch(`${s.indexerUrl}${path}`);
const json = async (path: string) => {
  const res = await api(path);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return { status: res.status, body: (await res.json()) as any };
};
const setFaults = (proxyUrl: string, faults: unknown[]) =>
  fetch(`${proxyUrl}/__proxy/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(faults),
  });

const MINTER_ROLE = keccak256(stringToHex("MINTER_ROLE"));
/** Last block of the scripted history: before any block a live test adds or reorgs. */
const PINNED = d.chains.base.historyEndBlock;
const units = (x: bigint, dec: number) => Number(formatUnits(x, dec));
const a = (name: string) => getAddress(s.addr(name));

async function read<T>(address: Address, fn: string, args: unknown[] = [], blockNumber = BigInt(PINNED)): Promise<T> {
  const { parseAbiItem } = await import("viem");
  const m = /^(\w+)\(([^()]*)\)\((.*)\)$/.exec(fn)!;
  const abi = [parseAbiItem(`function ${m[1]}(${m[2]}) view returns (${m[3]})`)];
  return (await s.client.readContract({ address, abi, functionName: m[1]!, args, blockNumber } as never)) as T;
}
const balanceOf = (token: string, holder: Address, block?: bigint) =>
  read<bigint>(a(token), "balanceOf(address)(uint256)", [holder], block);

/** Every string under a `verifyVia` key, anywhere in the document. */
function verifyCommands(doc: unknown, out: string[] = []): string[] {
  if (Array.isArray(doc)) for (const x of doc) verifyCommands(x, out);
  else if (doc && typeof doc === "object") {
    for (const [k, v] of Object.entries(doc)) {
      if (k === "verifyVia" && Array.isArray(v)) out.push(...v.filter((x): x is string => typeof x === "string"));
      else verifyCommands(v, out);
    }
  }
  return out;
}

describe("GET /api/por at a pinned block", () => {
  let report: any;
  beforeAll(async () => {
    await s.indexedThrough(PINNED);
    const res = await json(`/api/por?block=${PINNED}`);
    expect(res.status).toBe(200);
    report = res.body;
  });

  it("reports liabilities and PSM reserves equal to direct reads, outstanding = supply − kUSD in the PSMs", async () => {
    expect(report.blockNumber).toBe(PINNED);
    const supply = await read<bigint>(a("kUSD"), "totalSupply()(uint256)");
    const psms = ["psmMint", "psmRetiredMint", "psmRedeemReserve"] as const;
    const usdc = await Promise.all(psms.map((k) => balanceOf("usdc", a(k))));
    const kusd = await Promise.all(psms.map((k) => balanceOf("kUSD", a(k))));
    const outstanding = supply - kusd.reduce((x, y) => x + y, 0n);
    expect(report.liabilities.kUSD.totalSupplyWei).toBe(supply.toString());
    expect(report.liabilities.kUSD.outstandingWei).toBe(outstanding.toString());
    psms.forEach((k, i) => {
      expect(report.reserves[k].usdcHeld).toBe(units(usdc[i]!, 6));
      expect(report.reserves[k].kusdHeld).toBe(units(kusd[i]!, 18));
    });
    const psmUsdc = units(
      usdc.reduce((x, y) => x + y, 0n),
      6,
    );
    expect(report.reserves.psm.usdcHeld).toBe(psmUsdc);
    expect(report.reserves.psm.kusdHeldWei).toBe(kusd.reduce((x, y) => x + y, 0n).toString());
    // Rule 2: the 1:1 backing is PSM USDC over outstanding, never over supply.
    expect(report.solvency.psmSolvencyRatio).toBeCloseTo(psmUsdc / units(outstanding, 18), 7);
    expect(report.solvency.primaryBackingRatio).toBe(report.solvency.psmSolvencyRatio);
    expect(report.solvency.psmSolvencyPct).toBe(`${((psmUsdc / units(outstanding, 18)) * 100).toFixed(2)}%`);
    // Redemption depth rules 1–2: deepest single reserve, and the sum.
    expect(report.redemptionDepth.instantSingleTransactionUSDC).toBe(Math.max(...usdc.map((x) => units(x, 6))));
    expect(report.redemptionDepth.totalReachableUSDC).toBe(psmUsdc);
    expect(report.redemptionDepth.totalReachableRequiresSequentialTransactions).toBe(true);
  });

  it("prices vault v1 from its four buckets; a past block with no recorded venue reading leaves the mirror unverified", async () => {
    const [round] = [
      await read<readonly bigint[]>(a("ethUsdFeed"), "latestRoundData()(uint80,int256,uint256,uint256,uint80)"),
    ];
    const price = units(round[1]!, 8);
    expect(report.market.ethPriceUSD).toBe(price);
    const v1 = a("vaultV1");
    const weth = units(await balanceOf("weth", v1), 18);
    const off = units(await read<bigint>(v1, "offChainAssets()(uint256)"), 18);
    const mirror = units(await read<bigint>(v1, "l1Assets()(uint256)"), 18);
    const hedging = units(await read<bigint>(v1, "hedgingReserve()(uint256)"), 18);
    const l1 = report.reserves.vault.composition.l1Assets;
    expect(l1.reconciliationStatus).toBe("unverified");
    expect(l1.venueRead).toMatchObject({
      source: "none",
      reason: expect.stringMatching(/no venue reading was recorded/),
      recordedAtBlock: null,
    });
    expect(l1.eth).toBe(0);
    expect(l1.liveVenueEquityUsd).toBeNull();
    expect(l1.onChainMirror.eth).toBe(mirror); // rule 3: the raw mirror is always disclosed
    expect(report.reserves.vault.tvlUSD).toBeCloseTo((weth + off + hedging) * price, 4);
    const insurance =
      units(await balanceOf("usdc", a("insuranceFund")), 6) +
      units(await balanceOf("weth", a("insuranceFund")), 18) * price;
    const psmUsdc = report.reserves.psm.usdcHeld;
    // Rule 3 and 4: collateral = vault v1 + insurance fund + PSM USDC, over outstanding.
    const collateral = (weth + off + hedging) * price + insurance + psmUsdc;
    expect(report.solvency.collateralUSD).toBeCloseTo(collateral, 4);
    expect(report.solvency.aggregateCollateralRatio).toBeCloseTo(collateral / report.liabilities.kUSD.outstanding, 6);
    expect(report.solvency.ratio).toBe(report.solvency.aggregateCollateralRatio);
    expect(report.solvency.ratioPct).toBe(report.solvency.aggregateCollateralRatioPct);
    // Rule 6: staking vaults and vault v2 are never counted.
    for (const k of ["stakedVault", "stakedVaultDeprecated", "vaultV2"])
      expect(report.reserves[k].countedInSolvency).toBe(false);
  });

  it("reads the multisig threshold, the minter role and the staking vaults from chain", async () => {
    const ms = a("multisig");
    const threshold = await read<bigint>(ms, "getThreshold()(uint256)");
    const owners = await read<readonly Address[]>(ms, "getOwners()(address[])");
    expect(report.reserves.multisig.threshold).toBe(`${threshold}-of-${owners.length}`);
    const holds = await read<boolean>(a("kUSD"), "hasRole(bytes32,address)(bool)", [MINTER_ROLE, a("psmMint")]);
    expect(report.reserves.psmMint.minterRole.holdsRole).toBe(holds);
    expect(report.reserves.vaultV2.minterRole).toEqual(report.reserves.psmMint.minterRole);
    const sk = a("skUSD");
    const assets = await read<bigint>(sk, "totalAssets()(uint256)");
    const shares = await read<bigint>(sk, "totalSupply()(uint256)");
    expect(report.reserves.stakedVault.totalAssetsWei).toBe(assets.toString());
    expect(report.reserves.stakedVault.totalSupplyShares).toBe(units(shares, 24));
    const dep = a("skUSDDeprecated");
    const depShares = await read<bigint>(dep, "totalSupply()(uint256)");
    const depAssets = await read<bigint>(dep, "totalAssets()(uint256)");
    const redeemable = await read<bigint>(dep, "convertToAssets(uint256)(uint256)", [depShares]);
    const v = report.reserves.stakedVaultDeprecated;
    expect(v.totalSupplySharesRaw).toBe(depShares.toString());
    expect(v.redeemableKUSD).toBe(units(redeemable, 18));
    expect(v.orphanKUSD).toBeCloseTo(units(depAssets - redeemable, 18), 9);
    // The external holder's raw shares, computed here from its own balance: withheld in the report.
    const external = await read<bigint>(dep, "balanceOf(address)(uint256)", [d.accounts.externalDustHolder!.address]);
    expect(v.ownership.externalOwnedSharesRaw).toBe(external.toString());
    expect(JSON.stringify(report)).not.toContain(d.accounts.externalDustHolder!.address.slice(2).toLowerCase());
    expect(JSON.stringify(report)).not.toContain(d.accounts.externalDustHolder!.address.slice(2));
  });

  it("builds the precedent from the indexed redemptions, with the live PSM's redemption burns counted", async () => {
    const p = report.redemptionDepth.precedent;
    const landmarks = Object.entries(d.landmarks).filter(([k]) => k.startsWith("redemption:"));
    expect(p.executedRedemptions).toBe(landmarks.length);
    expect(p.transactions.map((t: any) => t.txHash).sort()).toEqual(landmarks.map(([, l]) => l.tx).sort());
    expect(p.externalRedemptionsToDate).toBe(landmarks.filter(([k]) => k.includes(":external:")).length);
    expect(p.allRedemptionsByFounderWallet).toBe(false);
    // Independent source: every kUSD Transfer to zero up to the pinned block.
    const burns = await s.client.getLogs({
      address: a("kUSD"),
      event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
      args: { to: zeroAddress },
      fromBlock: 0n,
      toBlock: BigInt(PINNED),
    });
    const burnedWei = burns.reduce((x, l) => x + l.args.value!, 0n);
    expect(burnedWei).toBeGreaterThan(0n);
    expect(p.lifetimeKUSDBurnedWei).toBe(burnedWei.toString());
    expect(p.redemptionBurnedKUSD).toBe(
      units(
        burns
          .filter((l) => getAddress(l.args.from!) === getAddress(a("psmMint")))
          .reduce((x, l) => x + l.args.value!, 0n),
        18,
      ),
    );
    for (const t of p.transactions) {
      const receipt = await s.client.getTransactionReceipt({ hash: t.txHash });
      expect(Number(receipt.blockNumber)).toBe(t.blockNumber);
      expect(getAddress(receipt.from)).toBe(t.redeemer);
      expect(Number.isInteger(t.feeBps)).toBe(true);
    }
    expect(p.completeAsOfBlock).toBe(PINNED);
  });

  it("every verifyVia cast command reproduces the value it names", async () => {
    const commands = verifyCommands(report).filter((c) => c.startsWith("cast "));
    expect(commands.length).toBeGreaterThan(40);
    let checked = 0;
    for (const full of commands) {
      const [cmd, note = ""] = full.split("  # ");
      if (/^cast (call|balance)/.test(cmd!)) expect(cmd).toContain(`--block ${PINNED}`); // pinned to the report's block
      const { stdout } = await runPrinted(full); // as printed, through bash
      const raw = / = (.+?)(?: \(\d+ decimals\))?$/.exec(note)?.[1];
      if (!raw || cmd!.startsWith("cast logs") || cmd!.startsWith("cast block")) continue;
      const out = stdout.trim();
      if (raw.startsWith("answer ")) expect(out.split("\n")[1]!.split(/\s+/)[0]).toBe(raw.slice(7));
      else if (out.startsWith("["))
        expect(
          out
            .slice(1, -1)
            .split(/,\s*/)
            .map((x) => x.toLowerCase()),
        ).toEqual(raw.split(",").map((x) => x.toLowerCase()));
      else expect(out.split(/\s+/)[0]).toBe(raw);
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  }, 120_000);
});

describe("GET /api/por at the head", () => {
  afterEach(async () => {
    await setFaults(inject("rpcProxyUrl"), []);
    await setFaults(inject("venueProxyUrl"), []);
  });

  it("recognises the venue mirror at min(mirror, live venue equity)", async () => {
    // The venue's equity moves with the mark price every second: read it straight before and
    // after the report, and the report's reading must lie between the two.
    const venueEquity = async () =>
      Number(
        (
          (await (
            await fetch(`${d.venue.url}/info`, {
              method: "POST",
              body: JSON.stringify({ type: "clearinghouseState", user: d.venue.hedgeAccount }),
            })
          ).json()) as any
        ).marginSummary.accountValue,
      );
    const before = await venueEquity();
    const { status, body } = await json("/api/por");
    const after = await venueEquity();
    expect(status).toBe(200);
    expect(body.atHead).toBe(true);
    const l1 = body.reserves.vault.composition.l1Assets;
    if (l1.venueRead.source === "recorded") {
      // A statement signed at this very block recorded its reading: the block keeps it.
      const statement = (await json(`/api/por/signed/${l1.venueRead.statement}`)).body;
      expect(l1.liveVenueEquityUsd).toBe(JSON.parse(statement.signed_payload_canonical).offchain.equity_usd);
    } else {
      expect(l1.venueRead.source).toBe("live");
      expect(l1.liveVenueEquityUsd).toBeGreaterThanOrEqual(Math.min(before, after) - 0.01);
      expect(l1.liveVenueEquityUsd).toBeLessThanOrEqual(Math.max(before, after) + 0.01);
    }
    const mirrorUsd = l1.onChainMirror.usd;
    expect(l1.usd).toBeCloseTo(Math.min(mirrorUsd, l1.liveVenueEquityUsd), 4);
    expect(l1.reconciliationStatus).toBe(mirrorUsd <= l1.liveVenueEquityUsd ? "reconciled" : "capped-to-live-venue");
    const c = body.reserves.vault.composition;
    expect(body.reserves.vault.tvlUSD).toBeCloseTo(
      c.trackedOnChain.usd + c.offChainAssets.usd + l1.usd + c.hedgingReserve.usd,
      4,
    );
  });

  it("holdsRole is null, never false, when the hasRole read fails", async () => {
    await setFaults(inject("rpcProxyUrl"), [
      { selector: toFunctionSelector("hasRole(bytes32,address)"), to: a("kUSD"), mode: "error" },
    ]);
    const { status, body } = await json("/api/por");
    expect(status).toBe(200);
    expect(body.reserves.psmMint.minterRole.holdsRole).toBeNull();
    expect(body.reserves.psmMint.minterRole.readStatus).toBe("read-failed");
    expect(body.reserves.vaultV2.minterRole.holdsRole).toBeNull();
    expect(body.redemptionDepth.byContract.every((b: any) => b.redeemOnly === null)).toBe(true);
    expect(body.attestation.failedReads.length).toBeGreaterThan(0);
    expect(body.solvency.status).toBe("fully-backed"); // the other reads still landed
  });

  it("a venue failure recognises none of the mirror and nulls the venue fields, without a 5xx", async () => {
    await setFaults(inject("venueProxyUrl"), [{ mode: "http500" }]);
    // A report at a block whose venue reading a signed statement recorded keeps that reading (issue
    // 27), and the stack signs one at its head when it starts: so the report is asked at a newer
    // head, which no statement recorded (mined again in the rare case one just did).
    let res = await json("/api/por");
    for (let i = 0; i < 3 && res.body.reserves?.vault.composition.l1Assets.venueRead.source === "recorded"; i++) {
      await s.client.request({ method: "evm_mine" as never });
      await s.caughtUp();
      res = await json("/api/por");
    }
    const { status, body } = res;
    expect(status).toBe(200);
    const l1 = body.reserves.vault.composition.l1Assets;
    expect(l1.eth).toBe(0);
    expect(l1.usd).toBe(0);
    expect(l1.liveVenueEquityUsd).toBeNull();
    expect(l1.excessUsd).toBeNull();
    expect(l1.reconciliationStatus).toBe("unverified");
    expect(l1.venueRead).toMatchObject({ source: "none", reason: expect.stringMatching(/venue read failed/) });
    expect(l1.onChainMirror.wei).toMatch(/^\d+$/);
    const c = body.reserves.vault.composition;
    expect(body.reserves.vault.tvlUSD).toBeCloseTo(
      c.trackedOnChain.usd + c.offChainAssets.usd + c.hedgingReserve.usd,
      4,
    );
  });
});

describe("caching: a report at a block is built once, answered with ETag, and its live reads stay live", () => {
  const stats = async () =>
    (await (await fetch(`${inject("rpcProxyUrl")}/__proxy/stats`)).json()) as { forwarded: number };
  afterEach(async () => {
    await setFaults(inject("rpcProxyUrl"), []);
  });

  it("?block=N at a final block is immutable, the head is short-lived, and If-None-Match gets a bodiless 304", async () => {
    const head = await s.indexedBlock();
    const final = head - 100;
    const first = await api(`/api/por?block=${final}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // Node's fetch asks for gzip: the coded answer's ETag is the identity one made weak.
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    // A block mined between two requests (other test files share this chain) changes nothing served as immutable.
    await s.client.request({ method: "evm_mine" as never });
    await s.caughtUp();
    const identity = await fetch(`${s.indexerUrl}/api/por?block=${final}`, {
      headers: { "accept-encoding": "identity" },
    });
    expect(identity.headers.get("etag")).toBe(etag.slice(2));
    await identity.arrayBuffer();
    const body = await first.text();
    const again = await api(`/api/por?block=${final}`);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe(body);
    const notModified = await fetch(`${s.indexerUrl}/api/por?block=${final}`, { headers: { "If-None-Match": etag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    const atHead = await api("/api/por");
    expect(atHead.headers.get("cache-control")).toBe("public, max-age=2");
    const statsAnswer = await api(`/api/stats?block=${final}`);
    expect(statsAnswer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(
      (
        await fetch(`${s.indexerUrl}/api/stats?block=${final}`, {
          headers: { "If-None-Match": statsAnswer.headers.get("etag")! },
        })
      ).status,
    ).toBe(304);
  });

  it("holdsRole is read on every request: a cached report turns null the moment hasRole fails, and back", async () => {
    const block = (await s.indexedBlock()) - 120;
    const cached = await json(`/api/por?block=${block}`);
    expect(cached.body.reserves.psmMint.minterRole.holdsRole).toBe(
      await read<boolean>(a("kUSD"), "hasRole(bytes32,address)(bool)", [MINTER_ROLE, a("psmMint")], BigInt(block)),
    );
    await setFaults(inject("rpcProxyUrl"), [
      { selector: toFunctionSelector("hasRole(bytes32,address)"), to: a("kUSD"), mode: "error" },
    ]);
    const failedAnswer = await api(`/api/por?block=${block}`);
    expect(failedAnswer.headers.get("cache-control")).toBe("no-store"); // a degraded answer is never kept by a cache
    const failed = { body: (await failedAnswer.json()) as any };
    expect(failed.body.reserves.psmMint.minterRole.holdsRole).toBeNull();
    expect(failed.body.attestation.failedReads.length).toBeGreaterThan(0);
    await setFaults(inject("rpcProxyUrl"), []);
    const back = await json(`/api/por?block=${block}`);
    expect(back.body).toEqual(cached.body);
  });

  it("20 concurrent requests for a block nobody asked for yet read the chain about once, not 20 times", async () => {
    const head = await s.indexedBlock();
    const before1 = (await stats()).forwarded;
    expect((await api(`/api/por?block=${head - 333}`)).status).toBe(200);
    const single = (await stats()).forwarded - before1;
    const before20 = (await stats()).forwarded;
    const answers = await Promise.all(Array.from({ length: 20 }, () => api(`/api/por?block=${head - 334}`)));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(new Set(answers.map((r) => r.headers.get("etag"))).size).toBe(1);
    const twenty = (await stats()).forwarded - before20;
    console.log(`[cache] chain reads: one request ${single}, 20 concurrent requests ${twenty}`);
    expect(single).toBeGreaterThan(0); // the block, the RPC head, two Multicall3 batches (rpc-report-calls.test.ts)
    // The snapshot is read once; what is read per request is the live part (hash, head, 3 roles), shared when concurrent.
    expect(twenty).toBeLessThan(single + 20 * 5);
  });
});

describe("report parameters and /api/stats", () => {
  it("refuses a bad block with a JSON 4xx and a stable code", async () => {
    for (const [q, status, code] of [
      ["abc", 400, "invalid_block"],
      ["-1", 400, "invalid_block"],
      ["1", 400, "block_before_deployment"],
      ["999999999", 422, "block_not_indexed"],
    ] as const) {
      const res = await json(`/api/por?block=${q}`);
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
  });

  it("reports a past block from history: only the redemptions up to it", async () => {
    const at = d.landmarks["redemption:founder:psmRetiredMint"]!.block;
    const { body } = await json(`/api/por?block=${at}`);
    expect(body.blockNumber).toBe(at);
    const upTo = Object.entries(d.landmarks).filter(([k, l]) => k.startsWith("redemption:") && l.block <= at);
    expect(body.redemptionDepth.precedent.executedRedemptions).toBe(upTo.length);
    expect(body.liabilities.kUSD.totalSupplyWei).toBe(
      (await read<bigint>(a("kUSD"), "totalSupply()(uint256)", [], BigInt(at))).toString(),
    );
    expect(body.reserves.psmRetiredMint.usdcHeld).toBe(
      units(await balanceOf("usdc", a("psmRetiredMint"), BigInt(at)), 6),
    );
  });

  it("/api/stats agrees with /api/por at the same block and publishes no ratio", async () => {
    const stats = (await json(`/api/stats?block=${PINNED}`)).body;
    const por = (await json(`/api/por?block=${PINNED}`)).body;
    expect(stats.psmUSDCLegacy).toBe(por.reserves.psmRedeemReserve.usdcHeld);
    expect(stats.psmUSDCMint).toBe(por.reserves.psmMint.usdcHeld);
    expect(stats.psmUSDCPrevMint).toBe(por.reserves.psmRetiredMint.usdcHeld);
    expect(stats.psmUSDC).toBe(por.reserves.psm.usdcHeld);
    expect(stats.kusdOutstanding).toBe(por.liabilities.kUSD.outstanding);
    expect(stats.kusdSupply).toBe(por.liabilities.kUSD.totalSupply);
    expect(Object.keys(stats).some((k) => /ratio/i.test(k))).toBe(false);
  });

  it("plans a redemption: the smallest covering reserve, else deepest first", async () => {
    const reserves = await Promise.all(
      (["psmMint", "psmRetiredMint", "psmRedeemReserve"] as const).map(async (k) => ({
        k,
        usdc: units(await balanceOf("usdc", a(k)), 6),
      })),
    );
    const sorted = [...reserves].sort((x, y) => x.usdc - y.usdc);
    const small = Math.floor(sorted[0]!.usdc / 2);
    const one = (await json(`/api/por/redemption-plan?amount=${small}&block=${PINNED}`)).body;
    expect(one.transactions).toHaveLength(1);
    expect(one.transactions[0].psm).toBe(sorted[0]!.k);
    const total = reserves.reduce((x, r) => x + r.usdc, 0);
    const big = Math.floor(sorted[2]!.usdc + sorted[1]!.usdc / 2);
    const split = (await json(`/api/por/redemption-plan?amount=${big}&block=${PINNED}`)).body;
    expect(split.transactions[0].psm).toBe(sorted[2]!.k);
    expect(split.sequentialTransactions).toBe(true);
    expect(split.fullyRoutable).toBe(true);
    const tooBig = (await json(`/api/por/redemption-plan?amount=${Math.ceil(total * 2)}&block=${PINNED}`)).body;
    expect(tooBig.fullyRoutable).toBe(false);
    for (const bad of ["", "abc", "0", "-5", "1e6"]) {
      const res = await json(`/api/por/redemption-plan?amount=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_amount");
    }
  });

  it("answers an unknown path with a JSON 404", async () => {
    const res = await json("/api/nope");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});

describe("report shape (spec 2.3)", () => {
  const SPEC_FIELDS: Record<string, string[]> = {
    "": [
      "protocol",
      "chain",
      "chainId",
      "blockNumber",
      "timestamp",
      "reserves",
      "liabilities",
      "solvency",
      "redemptionDepth",
      "market",
      "methodology",
      "attestation",
    ],
    attestation: ["kind", "rpcChainLength", "canonicalEndpoint", "verifyVia"],
    "reserves.vault": [
      "address",
      "version",
      "role",
      "liveDepositVault",
      "reconciliation",
      "asset",
      "assetAddress",
      "assetAmount",
      "tvlUSD",
      "onChainTotalAssets",
      "composition",
    ],
    "reserves.vault.onChainTotalAssets": ["eth", "wei", "usd", "source"],
    "reserves.vault.composition.trackedOnChain": ["eth", "usd", "source"],
    "reserves.vault.composition.offChainAssets": ["eth", "usd", "source", "policy"],
    "reserves.vault.composition.l1Assets": [
      "eth",
      "usd",
      "onChainMirror",
      "liveVenueEquityUsd",
      "excessUsd",
      "reconciliationStatus",
      "source",
      "venue",
      "verifyVia",
    ],
    "reserves.vault.composition.l1Assets.onChainMirror": ["eth", "usd", "wei", "source"],
    "reserves.vault.composition.hedgingReserve": ["eth", "usd", "source"],
    "reserves.vaultV2": [
      "address",
      "version",
      "role",
      "minterRole",
      "asset",
      "assetAddress",
      "totalAssetsETH",
      "totalAssetsWei",
      "totalSupplyShares",
      "wethBalanceETH",
      "l1AssetsETH",
      "tvlUSD",
      "countedInSolvency",
      "note",
      "verifyVia",
    ],
    "reserves.vaultV2.minterRole": ["role", "roleHash", "holder", "holdsRole", "readStatus", "note", "verifyVia"],
    "reserves.stakedVault": [
      "address",
      "version",
      "role",
      "asset",
      "assetAddress",
      "totalAssetsKUSD",
      "totalAssetsWei",
      "totalSupplyShares",
      "pricePerShare",
      "tvlUSD",
      "countedInSolvency",
      "ownership",
      "note",
      "verifyVia",
    ],
    "reserves.stakedVault.ownership": [
      "scope",
      "founderOwnedShares",
      "founderOwnedFraction",
      "founderOwnedUSD",
      "custody",
      "ref",
      "seeAlso",
    ],
    "reserves.stakedVaultDeprecated": [
      "address",
      "version",
      "status",
      "role",
      "asset",
      "assetAddress",
      "totalAssetsKUSD",
      "totalAssetsWei",
      "kusdBalanceKUSD",
      "totalSupplySharesRaw",
      "sharesNote",
      "tvlUSD",
      "countedInSolvency",
      "ownership",
      "redeemableKUSD",
      "orphanKUSD",
      "orphanNote",
      "note",
      "verifyVia",
    ],
    "reserves.stakedVaultDeprecated.ownership": [
      "scope",
      "protocolOwnedSharesRaw",
      "externalOwnedSharesRaw",
      "externalOwnedFraction",
      "externalOwnedKUSD",
      "method",
      "holderAddressWithheld",
      "note",
    ],
    "reserves.insuranceFund": ["address", "usdc", "weth", "totalUSD"],
    "reserves.treasury": ["address", "usdc", "weth", "totalUSD"],
    "reserves.multisig": ["address", "threshold", "usdc", "weth", "totalUSD"],
    "reserves.psm": ["address", "addressPrevMint", "addressMint", "usdcHeld", "kusdHeld", "kusdHeldWei"],
    "reserves.psmRedeemReserve": ["address", "role", "usdcHeld", "kusdHeld"],
    "reserves.psmRetiredMint": ["address", "role", "usdcHeld", "kusdHeld"],
    "reserves.psmMint": ["address", "role", "minterRole", "usdcHeld", "kusdHeld"],
    "reserves.protocolOwnedReserves": ["role", "totalUSD", "countedInSolvency", "seedPolicy", "components"],
    "reserves.protocolOwnedReserves.seedPolicy": ["onSite", "canonical", "commitment"],
    "reserves.protocolOwnedReserves.components": [
      "vaultDeposits",
      "stakedVaultDeposits",
      "founderWatchOnlyFloat",
      "treasury",
      "insuranceFund",
      "multisig",
    ],
    "reserves.protocolOwnedReserves.components.stakedVaultDeposits": [
      "address",
      "usd",
      "shares",
      "fractionOfVault",
      "countedInSolvency",
      "ref",
      "custody",
      "source",
      "founderShareOfOutstandingKUSD",
      "founderUnstakedKUSD",
      "founderUnstakedKUSDInWallet",
      "disclosureNote",
      "escrowNote",
    ],
    "reserves.protocolOwnedReserves.components.founderWatchOnlyFloat": [
      "address",
      "custody",
      "nativeEth",
      "weth",
      "totalEth",
      "usd",
      "countedInSolvency",
      "role",
      "hedgeScope",
      "verifyVia",
    ],
    "liabilities.kUSD": ["address", "totalSupply", "totalSupplyWei", "outstanding", "peg"],
    solvency: [
      "status",
      "psmSolvent",
      "psmSolvencyRatio",
      "psmSolvencyPct",
      "primaryBackingRatio",
      "collateralUSD",
      "liabilitiesUSD",
      "aggregateCollateralRatio",
      "aggregateCollateralRatioPct",
      "aggregateBasis",
      "ratio",
      "ratioPct",
    ],
    redemptionDepth: [
      "instantSingleTransactionUSDC",
      "instantSingleTransactionPctOfOutstanding",
      "deepestLegAddress",
      "totalReachableUSDC",
      "totalReachablePctOfOutstanding",
      "totalReachableRequiresSequentialTransactions",
      "outstandingKUSD",
      "precedent",
      "byContract",
      "routing",
      "topUpMechanism",
      "disclosure",
    ],
    "redemptionDepth.precedent": [
      "executedRedemptions",
      "totalRedeemedKUSD",
      "totalPaidOutUSDC",
      "externalRedemptionsToDate",
      "allRedemptionsByFounderWallet",
      "lifetimeKUSDBurned",
      "completeAsOf",
      "transactions",
      "note",
      "verifyVia",
    ],
    "redemptionDepth.precedent.transactions.0": [
      "date",
      "txHash",
      "blockNumber",
      "psmAddress",
      "psmLabel",
      "kusdRedeemed",
      "usdcPaidOut",
      "feeBps",
      "redeemer",
      "redeemerRelationship",
      "significance",
    ],
    "redemptionDepth.byContract.0": [
      "key",
      "label",
      "address",
      "reserveUSDC",
      "pctOfOutstanding",
      "redeemOnly",
      "canServeRedemptions",
    ],
    market: ["ethPriceUSD"],
  };
  const at = (doc: any, path: string) => (path ? path.split(".").reduce((x, k) => x?.[k], doc) : doc);

  it("has every field the spec lists, with Wei strings, Pct strings and ISO timestamps", async () => {
    await s.indexedThrough(PINNED);
    const report = (await json(`/api/por?block=${PINNED}`)).body;
    for (const [path, fields] of Object.entries(SPEC_FIELDS)) {
      const obj = at(report, path);
      expect(obj, path).toBeTypeOf("object");
      for (const f of fields) expect(Object.keys(obj), `${path}.${f}`).toContain(f);
    }
    expect(report.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Number.isInteger(report.chainId) && Number.isInteger(report.blockNumber)).toBe(true);
    expect(report.reserves.multisig.threshold).toMatch(/^\d+-of-\d+$/);
    expect(["reconciled", "capped-to-live-venue", "unverified"]).toContain(
      report.reserves.vault.composition.l1Assets.reconciliationStatus,
    );
    expect(["fully-backed", "backed-with-vault-collateral", "under-collateralised", "unknown"]).toContain(
      report.solvency.status,
    );
    // Convention: …Wei fields are decimal strings; …Pct fields "12.34%"; Raw share counts strings.
    const walk = (doc: any, path: string) => {
      if (Array.isArray(doc)) {
        for (const [i, x] of doc.entries()) walk(x, `${path}.${i}`);
        return;
      }
      if (!doc || typeof doc !== "object") return;
      for (const [k, v] of Object.entries(doc)) {
        if (/Wei$/.test(k)) expect(v === null || (typeof v === "string" && /^\d+$/.test(v)), `${path}.${k}`).toBe(true);
        if (/Pct$|^pctOfOutstanding$/.test(k))
          expect(v === null || (typeof v === "string" && /^-?\d+\.\d{2}%$/.test(v)), `${path}.${k}`).toBe(true);
        if (/SharesRaw$/.test(k)) expect(typeof v === "string" && /^\d+$/.test(v as string), `${path}.${k}`).toBe(true);
        const isObject = v !== null && typeof v === "object";
        if (/(USD|USDC|KUSD|ETH|eth|usd)$/.test(k) && !isObject)
          expect(v === null || typeof v === "number", `${path}.${k}`).toBe(true);
        walk(v, `${path}.${k}`);
      }
    };
    walk(report, "");
  });
});

describe("a block before a contract existed: its reads are not_deployed, not failed, and the report caches", () => {
  const contract = (name: string) => d.chains.base.contracts[name]!;
  const noCodeAt = async (name: string, block: number) => {
    const code = await s.client.getCode({ address: a(name), blockNumber: BigInt(block) });
    return code === undefined || code === "0x";
  };

  it("/api/por a block before the lending escrow: no failed read, the escrow not_deployed, immutable once final", async () => {
    const block = contract("lendingEscrowKUSD").block - 1;
    expect(await noCodeAt("lendingEscrowKUSD", block)).toBe(true);
    const res = await api(`/api/por?block=${block}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.attestation.failedReads).toEqual([]);
    expect(body.attestation.notDeployed).toContainEqual({
      to: a("lendingEscrowKUSD"),
      read: `balanceOf(address)(uint256) [${getAddress(d.signers.operator)}]`,
      reason: "not_deployed",
    });
    // Every address listed has no code at that block (checked here with eth_getCode, not by the report's own cache).
    for (const n of body.attestation.notDeployed) {
      const code = await s.client.getCode({ address: n.to, blockNumber: BigInt(block) });
      expect(code === undefined || code === "0x", n.to).toBe(true);
    }
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const again = await fetch(`${s.indexerUrl}/api/por?block=${block}`, {
      headers: { "If-None-Match": res.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    const last = Object.entries(d.chains.base.contracts).reduce((a, b) => (b[1].block > a[1].block ? b : a));
    console.log(
      [
        `GET /api/por?block=${block} (lendingEscrowKUSD deployed at ${block + 1}; the last deployment is ${last[0]} at ${last[1].block})`,
        `HTTP ${res.status}; Cache-Control: ${res.headers.get("cache-control")}; ETag: ${res.headers.get("etag")}`,
        `attestation.failedReads: ${JSON.stringify(body.attestation.failedReads)}`,
        `attestation.notDeployed: ${JSON.stringify(body.attestation.notDeployed)}`,
        `again with If-None-Match: HTTP ${again.status}`,
      ].join("\n"),
    );
  });

  it("/api/psm-status and /api/risk-status a block before the live mint PSM: it is not_deployed, has no triggers or gaps, and nothing failed", async () => {
    const block = contract("psmMint").block - 1;
    expect(await noCodeAt("psmMint", block)).toBe(true);
    const psm = await api(`/api/psm-status?block=${block}`);
    expect(psm.status).toBe(200);
    const status = (await psm.json()) as any;
    expect(status.failedReads).toEqual([]);
    expect(status.notDeployed.map((n: any) => n.to)).toContain(a("psmMint"));
    expect(psm.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const risk = (await (await api(`/api/risk-status?block=${block}`)).json()) as any;
    expect(risk.failedReads).toEqual([]);
    expect(risk.notDeployed.map((n: any) => n.to)).toContain(a("psmMint"));
    expect(risk.triggers.onChain.filter((t: any) => t.contractKey === "psmMint")).toEqual([]);
    expect(risk.gaps.filter((g: any) => g.contractKey === "psmMint")).toEqual([]);
  });
});

describe("the chain RPC down", () => {
  afterEach(async () => {
    await setFaults(inject("rpcProxyUrl"), []);
  });

  it("a report whose block cannot be read answers 503 chain_read_failed with Retry-After, never 500", async () => {
    const head = await s.indexedBlock();
    // Blocks no other test asks for, so nothing is cached.
    const blocks = [head - 421, head - 422];
    for (const mode of ["http500", "http429"]) {
      await setFaults(inject("rpcProxyUrl"), [{ mode }]);
      for (const path of [
        `/api/por?block=${blocks[0]}`,
        `/api/stats?block=${blocks[1]}`,
        `/api/psm-status?block=${blocks[1]}`,
      ]) {
        const res = await api(path);
        const body = (await res.json()) as any;
        expect({ mode, path, status: res.status, code: body.error?.code }).toEqual({
          mode,
          path,
          status: 503,
          code: "chain_read_failed",
        });
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      }
    }
  }, 120_000);
});
