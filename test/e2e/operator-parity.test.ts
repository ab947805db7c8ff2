/**
 * The operator's three surfaces, checked against direct chain reads at the same block:
 * GET /api/psm-status (every gate, the headroom the deployed code binds, a failed read as null),
 * GET /api/risk-status (every on-chain trigger, the role holders, the gaps by calling them),
 * GET /api/health and /.well-known/security.txt. The devnet history has a PSM with minting off,
 * a paused PSM and a PSM at its cap; kUSD's BURNER_ROLE() and vault v2's depositsEnabled() are
 * named by the operator's source and revert on the deployed bytecode, as on Base.
 */

import {
  type Address,
  erc20Abi,
  formatUnits,
  getAddress,
  keccak256,
  parseAbiItem,
  stringToHex,
  toFunctionSelector,
} from "viem";
import { afterEach, describe, expect, inject, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const get = async (path: string) => {
  const res = await fetch(`${s.indexerUrl}${path}`);
  return { status: res.status, body: (await res.json()) as any, res };
};
const setFaults = (faults: unknown[]) =>
  fetch(`${inject("rpcProxyUrl")}/__proxy/faults`, { method: "POST", body: JSON.stringify(faults) });
afterEach(() => setFaults([]));

const MINTER_ROLE = keccak256(stringToHex("MINTER_ROLE"));
const usdc = () => s.addr("usdc");
const at = (block: number) => ({ blockNumber: BigInt(block) });
const readSig = (address: Address, signature: string, args: unknown[], block: number) => {
  const m = /^(\w+)\(([^()]*)\)\((.*)\)$/.exec(signature)!;
  return s.client.readContract({
    address,
    abi: [parseAbiItem(`function ${m[1]}(${m[2]}) view returns (${m[3]})`)],
    functionName: m[1]!,
    args,
    ...at(block),
  } as never) as Promise<unknown>;
};

/** The gates and the headroom of one PSM, read directly. */
async function gatesAt(psm: Address, version: string, block: number) {
  const r = (sig: string, args: unknown[] = []) => readSig(psm, sig, args, block);
  const [mintingEnabled, paused, supported, cap, exposure, balance, minter] = (await Promise.all([
    r("mintingEnabled()(bool)"),
    r("paused()(bool)"),
    r("supportedStables(address)(bool)", [usdc()]),
    r("stableCaps(address)(uint256)", [usdc()]),
    r("currentExposure(address)(uint256)", [usdc()]),
    s.client.readContract({ address: usdc(), abi: erc20Abi, functionName: "balanceOf", args: [psm], ...at(block) }),
    readSig(s.addr("kUSD"), "hasRole(bytes32,address)(bool)", [MINTER_ROLE, psm], block),
  ])) as [boolean, boolean, boolean, bigint, bigint, bigint, boolean];
  const used = version === "v1" ? exposure : exposure > balance ? exposure : balance;
  const headroom = cap > used ? cap - used : 0n;
  // Through the exact decimal: Number(raw) rounds once above 2^53 and / 1e6 rounds again.
  const units = (raw: bigint) => Number(formatUnits(raw, 6));
  return {
    mintingEnabled,
    paused,
    supportedStables: supported,
    stableCaps: units(cap),
    currentExposure: units(exposure),
    usdcBalance: units(balance),
    psmHasMinterRole: minter,
    headroomUSDC: units(headroom),
  };
}

describe("GET /api/psm-status", () => {
  it("every gate of every PSM equals a direct read at the same block; the live mint PSM first and at the top level", async () => {
    await s.caughtUp();
    const { status, body } = await get("/api/psm-status");
    expect(status).toBe(200);
    expect(body.psms.map((p: any) => p.key)).toEqual(["psmMint", "psmRetiredMint", "psmRedeemReserve"]);
    for (const p of body.psms) expect(p.gates, p.key).toEqual(await gatesAt(p.address, p.version, body.blockNumber));
    expect(body.gates).toEqual(body.psms[0].gates);
    expect(body.ready).toBe(true);
    expect(body.psms[0].verifyVia.mintingEnabled).toMatch(
      new RegExp(`^cast call ${body.psm} 'mintingEnabled\\(\\)\\(bool\\)' --block ${body.blockNumber} `),
    );
    // The prior mint PSM: no MINTER_ROLE, and capped at what it holds since the landmark.
    expect(body.psms[1]).toMatchObject({ ready: false, blocking: expect.arrayContaining(["psmHasMinterRole"]) });
  });

  it("shows the periods of the history: minting off, a paused PSM, a PSM at its cap", async () => {
    const off = (await get(`/api/psm-status?block=${d.landmarks["redemption:inventory:psmMint"]!.block}`)).body;
    expect(off.gates.mintingEnabled).toBe(false);
    expect(off).toMatchObject({
      ready: false,
      psms: [expect.objectContaining({ blocking: ["mintingEnabled"] }), expect.anything(), expect.anything()],
    });
    const paused = (await get(`/api/psm-status?block=${d.landmarks.pause!.block}`)).body;
    expect(paused.psms.find((p: any) => p.key === "psmRetiredMint")).toMatchObject({
      gates: { paused: true },
      blocking: expect.arrayContaining(["notPaused"]),
    });
    const capBlock = d.landmarks.psmAtCap!.block;
    const capped = (await get(`/api/psm-status?block=${capBlock}`)).body.psms.find(
      (p: any) => p.key === "psmRetiredMint",
    );
    expect(capped.gates).toEqual(await gatesAt(capped.address, "v3", capBlock));
    expect(capped.gates.headroomUSDC).toBe(0);
    expect(capped.blocking).toContain("headroom");
  });

  it("a gate whose read fails is null, and ready is null rather than guessed", async () => {
    // A block no other test asks about: a block's document is kept once every read of it landed.
    const block = d.landmarks.psmAtCap!.block - 2;
    await setFaults([{ selector: toFunctionSelector("mintingEnabled()"), mode: "error" }]);
    const { status, body, res } = await get(`/api/psm-status?block=${block}`);
    expect(status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(body.gates.mintingEnabled).toBeNull();
    expect(body.ready).toBeNull();
    expect(body.psms[0].unknown).toEqual(["mintingEnabled"]);
    expect(body.failedReads.length).toBeGreaterThan(0);
    await setFaults([]);
    // Not kept: asked again without the fault, the block is read again and equals the chain.
    const again = (await get(`/api/psm-status?block=${block}`)).body;
    expect(again.failedReads).toEqual([]);
    expect(again.gates).toEqual(await gatesAt(getAddress(again.psms[0].address), again.psms[0].version, block));
  });
});

describe("GET /api/risk-status", () => {
  it("every on-chain trigger equals a direct read at its block; role holders hold their role there", async () => {
    await s.caughtUp();
    const { status, body } = await get("/api/risk-status");
    expect(status).toBe(200);
    const block = body.blockNumber;
    const onChain = body.triggers.onChain as any[];
    // Catalogued from the ABIs: the switches the issue names are there.
    for (const id of [
      "psmMint.paused",
      "psmMint.solvencyCheckDisabled",
      "psmMint.depegCheckDisabled",
      "psmMint.mintingEnabled",
      "psmMint.stableCaps",
      "vaultV2.whitelistEnabled",
      "timelock.getMinDelay",
      "kUSD.roles.MINTER_ROLE",
      "kUSD.roles.DEFAULT_ADMIN_ROLE",
    ]) {
      expect(
        onChain.map((t) => t.id),
        id,
      ).toContain(id);
    }
    for (const t of onChain.filter((x) => x.kind !== "role")) {
      const [sig, arg] = t.getter.split(" [");
      const direct = await readSig(t.contract, sig, arg ? [usdc()] : [], block);
      expect(t.value, t.id).toBe(typeof direct === "bigint" ? direct.toString() : direct);
    }
    for (const t of onChain.filter((x) => x.kind === "role")) {
      const role = t.id.endsWith("MINTER_ROLE") ? MINTER_ROLE : (`0x${"00".repeat(32)}` as const);
      for (const holder of t.value)
        expect(
          await readSig(t.contract, "hasRole(bytes32,address)(bool)", [role, holder], block),
          `${t.id} ${holder}`,
        ).toBe(true);
    }
    // The deployed configuration as on Base: the solvency gate is off on the live mint PSM.
    expect(onChain.find((t) => t.id === "psmMint.solvencyCheckDisabled")).toMatchObject({ value: true, safe: false });
    expect(body.overall).toBe("attention");
    expect(onChain.find((t) => t.id === "kUSD.roles.MINTER_ROLE")).toMatchObject({
      value: [getAddress(d.chains.base.contracts.psmMint!.address)],
      safe: true,
    });
  });

  it("lists as gaps the getters the source names that revert on the deployed bytecode, each checked by calling it", async () => {
    const { body } = await get("/api/risk-status");
    const ids = body.gaps.map((g: any) => g.id);
    expect(ids).toEqual(expect.arrayContaining(["kUSD.BURNER_ROLE", "vaultV2.depositsEnabled"]));
    for (const g of body.gaps) {
      const data =
        toFunctionSelector(`function ${g.getter}`) +
        (g.getter.endsWith("(address)") ? usdc().slice(2).toLowerCase().padStart(64, "0") : "");
      await expect(
        s.client.call({ to: g.contract, data: data as `0x${string}`, blockNumber: BigInt(body.blockNumber) }),
        g.id,
      ).rejects.toThrow();
    }
    // A getter that answers is no gap.
    expect(ids).not.toContain("kUSD.MINTER_ROLE");
    expect(ids).not.toContain("psmMint.mintingEnabled");
  });

  it("a trigger whose read fails is null, never judged, and the failure is published", async () => {
    // A block of the history that no other test asks about, so nothing of it is cached (a head
    // block may be: the monitor's tests read risk-status at the heads they see).
    const block = d.landmarks.psmAtCap!.block - 1;
    await setFaults([{ selector: toFunctionSelector("depegCheckDisabled()"), mode: "error" }]);
    const { status, body, res } = await get(`/api/risk-status?block=${block}`);
    expect(status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(body.triggers.onChain.find((t: any) => t.id === "psmMint.depegCheckDisabled")).toMatchObject({
      value: null,
      safe: null,
      verifyVia: null,
    });
    expect(body.failedReads.join("\n")).toMatch(/depegCheckDisabled/);
    await setFaults([]);
    // Not kept: asked again without the fault, the same block is read again and judged.
    const again = (await get(`/api/risk-status?block=${block}`)).body;
    expect(again.triggers.onChain.find((t: any) => t.id === "psmMint.depegCheckDisabled")).toMatchObject({
      value: false,
      safe: true,
    });
  });

  it("off-chain: the venue's reachability, equity and its age equal the venue's own answer; the statement's age its signed time; a venue down is unsafe", async () => {
    const venue = async () =>
      (await (
        await fetch(`${d.venue.url}/info`, {
          method: "POST",
          body: JSON.stringify({ type: "clearinghouseState", user: d.venue.hedgeAccount }),
        })
      ).json()) as any;
    const before = await venue();
    const { body } = await get("/api/risk-status");
    const after = await venue();
    const off = Object.fromEntries(body.triggers.offChain.map((t: any) => [t.id, t]));
    expect(off["venue.reachable"]).toMatchObject({ value: true, safe: true });
    // The venue marks to a moving price, second by second: within $5 of a read right after (as in por.test).
    expect(off["venue.equityUsd"].value).toBeCloseTo(Number(after.marginSummary.accountValue), -1);
    expect(off["venue.equityAgeSeconds"].value).toBeGreaterThanOrEqual(0);
    expect(off["venue.equityAgeSeconds"].value).toBeLessThanOrEqual(Math.ceil((Date.now() - before.time) / 1000));
    const signed = JSON.parse((await get("/api/por/signed")).body.signed_payload_canonical);
    expect(
      Math.abs(off["statement.ageSeconds"].value - (Math.floor(Date.now() / 1000) - signed.timestamp)),
    ).toBeLessThanOrEqual(5);

    await fetch(`${inject("venueProxyUrl")}/__proxy/faults`, {
      method: "POST",
      body: JSON.stringify([{ mode: "http500" }]),
    });
    try {
      const down = Object.fromEntries(
        (await get("/api/risk-status")).body.triggers.offChain.map((t: any) => [t.id, t]),
      );
      expect(down["venue.reachable"]).toMatchObject({ value: false, safe: false });
      expect(down["venue.reachable"].detail).toMatch(/venue read failed/);
      expect(down["venue.equityUsd"]).toMatchObject({ value: null, safe: false });
      expect(down["venue.equityAgeSeconds"]).toMatchObject({ value: null, safe: false });
    } finally {
      await fetch(`${inject("venueProxyUrl")}/__proxy/faults`, { method: "POST", body: "[]" });
    }
  });

  it("at the pause drill the paused PSM is out of its safe state", async () => {
    const { body } = await get(`/api/risk-status?block=${d.landmarks.pause!.block}`);
    expect(body.triggers.onChain.find((t: any) => t.id === "psmRetiredMint.paused")).toMatchObject({
      value: true,
      safe: false,
    });
    expect(body.summary).toMatch(/psmRetiredMint\.paused/);
  });
});

describe("GET /api/health and /.well-known/security.txt", () => {
  it("health: the indexed block, the chain head, the lag and the statement's age, each from its own source", async () => {
    await (await fetch(`${s.indexerUrl}/api/por/signed`)).text(); // a statement exists
    const { status, body } = await get("/api/health");
    expect(status).toBe(200);
    const head = Number(await s.client.getBlockNumber({ cacheTime: 0 }));
    expect(body.chainHead).toBeGreaterThanOrEqual(head - 1);
    expect(body.indexedBlock).toBeLessThanOrEqual(body.chainHead);
    expect(body.lagBlocks).toBe(body.chainHead - body.indexedBlock);
    const signed = JSON.parse((await get("/api/por/signed")).body.signed_payload_canonical);
    expect(Math.abs(body.statementAgeSeconds - (Math.floor(Date.now() / 1000) - signed.timestamp))).toBeLessThanOrEqual(
      5,
    );
    expect(body.ok).toBe(body.problems.length === 0);
  });

  it("security.txt: RFC 9116 fields from configuration", async () => {
    const res = await fetch(`${s.indexerUrl}/.well-known/security.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^Contact: mailto:security@kusd-devnet\.invalid$/m);
    expect(Date.parse(/^Expires: (.*)$/m.exec(text)![1]!)).toBeGreaterThan(Date.now());
    // The stack sets no public URL (KUSD_SITE_URL): Canonical would only name localhost, so there is none.
    expect(text).not.toMatch(/^Canonical:/m);
  });
});
