/**
 * The devnet PSMs behave as the deployed ones (spec 2.3 redemptionDepth rules 3, 6 and 8, and
 * where the deployed bytecode departs from rule 5), on a fresh chain over one USDC and one kUSD:
 * A is the live mint PSM (burns what it redeems while minting is on), B the retired v3 (keeps
 * it), V1 the first PSM (raw-amount fee tiers). Every expected number is computed by hand.
 */

import { type Address, keccak256, maxUint256, parseUnits, stringToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEE_TIERS, SWAP_FEE_BPS } from "../../devnet/history.js";
import { devnetKey } from "../../devnet/keys.js";
import { revertReason, startTestChain, type TestChain } from "../helpers/test-chain.js";

const MINTER_ROLE = keccak256(stringToHex("MINTER_ROLE"));
const usdc = (n: number) => parseUnits(String(n), 6);
const kusd = (n: number) => parseUnits(String(n), 18);

const admin = devnetKey("test:admin").address;
const user = devnetKey("test:user").address;
const treasuryOwner = devnetKey("test:treasury").address;

let c: TestChain;
let USDC: Address;
let KUSD: Address;
let psmA: Address; // live mint PSM, the deep reserve
let psmB: Address; // retired v3 PSM, the shallow reserve
let psmV1: Address;
let treasury: Address;
let borrower: Address;

const balance = (token: Address, who: Address, artifact = "KUSD") =>
  c.read<bigint>(token, artifact, "balanceOf", [who]);
const usdcOf = (who: Address) => balance(USDC, who, "FiatTokenV2");
const supply = () => c.read<bigint>(KUSD, "KUSD", "totalSupply");

beforeAll(async () => {
  c = await startTestChain();
  await c.d.setBalances([admin, user, treasuryOwner], 10n ** 22n);
  USDC = await c.deploy("FiatTokenV2", admin, [admin]);
  KUSD = await c.deploy("KUSD", admin, [admin]);
  treasury = await c.deploy("KerneTreasury", treasuryOwner, [
    "0x0000000000000000000000000000000000000000",
    "0x0000000000000000000000000000000000000000",
    "0x0000000000000000000000000000000000000000",
  ]);
  borrower = await c.deploy("FlashBorrower", user, []);
  psmA = await c.deploy("KUSDPSM", admin, [KUSD, admin]);
  psmB = await c.deploy("KUSDPSMV3", admin, [KUSD, admin]);
  psmV1 = await c.deploy("KUSDPSMV1", admin, [KUSD, admin]);
  for (const [psm, artifact] of [
    [psmA, "KUSDPSM"],
    [psmB, "KUSDPSMV3"],
    [psmV1, "KUSDPSMV1"],
  ] as const) {
    await c.send(admin, psm, artifact, "addStable", [USDC, SWAP_FEE_BPS, usdc(10_000_000)]);
    await c.send(admin, psm, artifact, "setTieredFees", [USDC, FEE_TIERS]);
    await c.send(admin, psm, artifact, "setMintingEnabled", [true]);
    if (artifact !== "KUSDPSMV1") {
      await c.send(admin, psm, artifact, "setTreasury", [treasury]);
      await c.send(admin, psm, artifact, "setSolvencyCheckDisabled", [true]);
      await c.send(admin, psm, artifact, "setDepegCheckDisabled", [true]);
    }
    await c.send(admin, KUSD, "KUSD", "grantRole", [MINTER_ROLE, psm]);
    await c.send(user, USDC, "FiatTokenV2", "approve", [psm, maxUint256]);
    await c.send(user, KUSD, "KUSD", "approve", [psm, maxUint256]);
  }
  await c.send(admin, USDC, "FiatTokenV2", "mint", [user, usdc(1_000_000)]);
  await c.send(user, psmA, "KUSDPSM", "swapStableForKUSD", [USDC, usdc(300_000)]);
  await c.send(user, psmB, "KUSDPSMV3", "swapStableForKUSD", [USDC, usdc(10_000)]);
});

afterAll(() => c?.stop());

describe("the deployed PSMs on the devnet", () => {
  it("charges a mint's fee in USDC by the tier of its size and keeps the USDC in the minting PSM", async () => {
    expect(await usdcOf(psmA)).toBe(usdc(300_000));
    expect(await usdcOf(psmB)).toBe(usdc(10_000));
    // 300,000 USDC is in the 250,000 tier (7 bps): fee 210 USDC, 299,790 kUSD minted;
    // 10,000 USDC is below every tier (flat 10 bps): fee 10 USDC, 9,990 kUSD.
    expect(await supply()).toBe(kusd(299_790) + kusd(9_990));
    expect(await c.read<bigint>(psmA, "KUSDPSM", "accruedFees", [USDC])).toBe(usdc(210));
  });

  it("pays a redemption only from its own reserve, whatever the other PSMs hold", async () => {
    const reason = await revertReason(c.send(user, psmB, "KUSDPSMV3", "swapKUSDForStable", [USDC, kusd(20_000)]));
    expect(reason).toBe("InsufficientStableReserves()");
    expect(await usdcOf(psmA)).toBe(usdc(300_000));
  });

  it("the retired v3 PSM keeps redeemed kUSD (no burn) and charges the tier fee in kUSD", async () => {
    const supplyBefore = await supply();
    const usdcBefore = await usdcOf(user);
    await c.send(user, psmB, "KUSDPSMV3", "swapKUSDForStable", [USDC, kusd(5_000)]);
    // Below 50k USDC the fee is the flat 10 bps: 5 kUSD, so 4,995 USDC is paid out.
    expect((await usdcOf(user)) - usdcBefore).toBe(usdc(4_995));
    expect(await usdcOf(psmB)).toBe(usdc(10_000) - usdc(4_995));
    expect(await balance(KUSD, psmB)).toBe(kusd(5_000));
    expect(await supply()).toBe(supplyBefore);
  });

  it("the live PSM burns what it redeems while minting is enabled, and keeps it while minting is off", async () => {
    const supplyBefore = await supply();
    await c.send(user, psmA, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(5_000)]);
    expect(await balance(KUSD, psmA)).toBe(0n);
    expect(await supply()).toBe(supplyBefore - kusd(5_000));

    await c.send(admin, psmA, "KUSDPSM", "setMintingEnabled", [false]);
    await c.send(user, psmA, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(2_000)]);
    expect(await balance(KUSD, psmA)).toBe(kusd(2_000));
    expect(await supply()).toBe(supplyBefore - kusd(5_000));
    // With minting off a mint is paid out of that inventory: 1,000 USDC → 999 kUSD, supply unchanged.
    await c.send(user, psmA, "KUSDPSM", "swapStableForKUSD", [USDC, usdc(1_000)]);
    expect(await balance(KUSD, psmA)).toBe(kusd(2_000) - kusd(999));
    expect(await supply()).toBe(supplyBefore - kusd(5_000));
    await c.send(admin, psmA, "KUSDPSM", "setMintingEnabled", [true]);
  });

  it("selects tiers as lower bounds in USDC units (the memo's measured boundaries)", async () => {
    const fee = (n: number) => c.read<bigint>(psmA, "KUSDPSM", "getFee", [USDC, usdc(n)]);
    expect(await fee(49_999)).toBe((usdc(49_999) * 10n) / 10_000n);
    expect(await fee(50_000)).toBe((usdc(50_000) * 8n) / 10_000n);
    expect(await fee(249_999)).toBe((usdc(249_999) * 8n) / 10_000n);
    expect(await fee(250_000)).toBe((usdc(250_000) * 7n) / 10_000n);
    expect(await fee(999_999)).toBe((usdc(999_999) * 7n) / 10_000n);
    expect(await fee(1_000_000)).toBe((usdc(1_000_000) * 5n) / 10_000n);
  });

  it("v3 refuses tiers that are not strictly descending; v1 takes them in any order", async () => {
    const ascending = [...FEE_TIERS].reverse();
    expect(await revertReason(c.send(admin, psmB, "KUSDPSMV3", "setTieredFees", [USDC, ascending]))).toBe(
      "Error(KUSDPSM: tiers must be strictly descending by threshold)",
    );
    await c.send(admin, psmV1, "KUSDPSMV1", "setTieredFees", [USDC, FEE_TIERS]);
  });

  it("PSM v1 compares the raw amount with the tiers: any redemption above 1e12 wei pays the lowest tier", async () => {
    // 10 kUSD = 1e19 wei ≥ 1,000,000e6 → 5 bps, where v3 would charge the flat 10 bps.
    expect(await c.read<bigint>(psmV1, "KUSDPSMV1", "getFee", [USDC, kusd(10)])).toBe((kusd(10) * 5n) / 10_000n);
    await c.send(user, psmV1, "KUSDPSMV1", "swapStableForKUSD", [USDC, usdc(1_000)]); // 10 bps: 999 kUSD
    const before = await usdcOf(user);
    await c.send(user, psmV1, "KUSDPSMV1", "swapKUSDForStable", [USDC, kusd(100)]);
    expect((await usdcOf(user)) - before).toBe(usdc(99.95));
    // v1 lowers the USDC exposure by the kUSD amount in wei: 1,000e6 − 100e18 floors at zero.
    expect(await c.read<bigint>(psmV1, "KUSDPSMV1", "currentExposure", [USDC])).toBe(0n);
  });

  it("stops minting once MINTER_ROLE is revoked, while redemption still works", async () => {
    await c.send(admin, KUSD, "KUSD", "revokeRole", [MINTER_ROLE, psmB]);
    expect(await revertReason(c.send(user, psmB, "KUSDPSMV3", "swapStableForKUSD", [USDC, usdc(100)]))).toBe(
      "KusdMintFailed()",
    );
    const before = await usdcOf(user);
    await c.send(user, psmB, "KUSDPSMV3", "swapKUSDForStable", [USDC, kusd(1_000)]);
    expect((await usdcOf(user)) - before).toBe(usdc(999));
  });

  it("lends the whole reserve in a flash loan that must be repaid in the same transaction", async () => {
    const reserve = await usdcOf(psmA);
    expect(await c.read<bigint>(psmA, "KUSDPSM", "maxFlashLoan", [USDC])).toBe(reserve);
    expect(await c.read<bigint>(psmA, "KUSDPSM", "flashFee", [USDC, reserve])).toBe(0n);
    const unpaid = await revertReason(c.send(user, borrower, "FlashBorrower", "borrow", [psmA, USDC, reserve, false]));
    expect(unpaid).toMatch(/insufficient allowance|ERC20InsufficientAllowance/);
    expect(
      await revertReason(c.send(user, borrower, "FlashBorrower", "borrow", [psmA, USDC, reserve + 1n, true])),
    ).toBe("FlashLoanExceedsBalance()");
    await c.send(user, borrower, "FlashBorrower", "borrow", [psmA, USDC, reserve, true]);
    expect(await usdcOf(psmA)).toBe(reserve);
  });

  it("lets USDC out to the treasury only up to the skimmable surplus", async () => {
    // B's fees: 10 USDC (mint) + 5 and 1 USDC (redemptions) = 16; exposure = held = 4,006 USDC;
    // net backing 4,006 − 16 = 3,990, so the headroom over it is the whole 16.
    const surplus = await c.read<bigint>(psmB, "KUSDPSMV3", "skimmableSurplus", [USDC]);
    expect(surplus).toBe(usdc(16));
    expect(await revertReason(c.send(admin, psmB, "KUSDPSMV3", "skimSurplus", [USDC, surplus + 1n]))).toBe(
      "SkimExceedsSurplus()",
    );
    await c.send(admin, psmB, "KUSDPSMV3", "skimSurplus", [USDC, surplus]);
    expect(await usdcOf(treasury)).toBe(surplus);
    expect(await c.read<bigint>(psmB, "KUSDPSMV3", "skimmableSurplus", [USDC])).toBe(0n);
  });

  it("refuses swaps while paused; a manager pauses, only the admin unpauses", async () => {
    await c.send(admin, psmA, "KUSDPSM", "pause");
    expect(await revertReason(c.send(user, psmA, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(10)]))).toBe(
      "EnforcedPause()",
    );
    expect(await revertReason(c.send(user, psmA, "KUSDPSM", "unpause"))).toMatch(/AccessControlUnauthorizedAccount/);
    await c.send(admin, psmA, "KUSDPSM", "unpause");
    await c.send(user, psmA, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(10)]);
  });

  it("the v3 and live PSMs refuse swaps without a depeg oracle unless the check is disabled", async () => {
    await c.send(admin, psmA, "KUSDPSM", "setDepegCheckDisabled", [false]);
    expect(await revertReason(c.send(user, psmA, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(10)]))).toBe(
      "DepegOracleNotConfigured()",
    );
    await c.send(admin, psmA, "KUSDPSM", "setDepegCheckDisabled", [true]);
  });
});
