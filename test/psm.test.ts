/**
 * KUSDPSM rules (spec 2.3 redemptionDepth rules 3, 5, 6 and 8) on a fresh chain: two PSMs
 * over one USDC and one kUSD, driven by real transactions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keccak256, maxUint256, parseUnits, stringToHex, type Address } from "viem";
import { devnetKey } from "../devnet/keys.js";
import { REDEEM_FEE_TIERS } from "../devnet/history.js";
import { revertReason, startTestChain, type TestChain } from "./helpers/test-chain.js";

const MINTER_ROLE = keccak256(stringToHex("MINTER_ROLE"));
const usdc = (n: number) => parseUnits(String(n), 6);
const kusd = (n: number) => parseUnits(String(n), 18);

const admin = devnetKey("test:admin").address;
const user = devnetKey("test:user").address;
const treasuryOwner = devnetKey("test:treasury").address;

let c: TestChain;
let USDC: Address;
let KUSD: Address;
let psmA: Address; // the deep reserve
let psmB: Address; // the shallow reserve
let treasury: Address;
let borrower: Address;

const balance = (token: Address, who: Address, artifact = "KUSD") => c.read<bigint>(token, artifact, "balanceOf", [who]);
const usdcOf = (who: Address) => balance(USDC, who, "FiatTokenV2");

beforeAll(async () => {
  c = await startTestChain();
  await c.d.setBalances([admin, user, treasuryOwner], 10n ** 22n);
  USDC = await c.deploy("FiatTokenV2", admin, [admin]);
  KUSD = await c.deploy("KUSD", admin, [admin]);
  treasury = await c.deploy("KerneTreasury", treasuryOwner, ["0x0000000000000000000000000000000000000000", "0x0000000000000000000000000000000000000000", "0x0000000000000000000000000000000000000000"]);
  borrower = await c.deploy("FlashBorrower", user, []);
  psmA = await c.deploy("KUSDPSM", admin, [KUSD, admin]);
  psmB = await c.deploy("KUSDPSM", admin, [KUSD, admin]);
  for (const psm of [psmA, psmB]) {
    await c.send(admin, psm, "KUSDPSM", "addStable", [USDC, 0n, usdc(10_000_000)]);
    await c.send(admin, psm, "KUSDPSM", "setTieredFees", [USDC, REDEEM_FEE_TIERS]);
    await c.send(admin, psm, "KUSDPSM", "setTreasury", [treasury]);
    await c.send(admin, KUSD, "KUSD", "grantRole", [MINTER_ROLE, psm]);
    await c.send(user, USDC, "FiatTokenV2", "approve", [psm, maxUint256]);
    await c.send(user, KUSD, "KUSD", "approve", [psm, maxUint256]);
  }
  await c.send(admin, USDC, "FiatTokenV2", "mint", [user, usdc(1_000_000)]);
  await c.send(user, psmA, "KUSDPSM", "swapStableForKUSD", [USDC, usdc(300_000)]);
  await c.send(user, psmB, "KUSDPSM", "swapStableForKUSD", [USDC, usdc(10_000)]);
});

afterAll(() => c?.stop());

describe("KUSDPSM", () => {
  it("mints 1 kUSD per USDC and keeps the USDC in the minting PSM", async () => {
    expect(await usdcOf(psmA)).toBe(usdc(300_000));
    expect(await usdcOf(psmB)).toBe(usdc(10_000));
    expect(await c.read<bigint>(KUSD, "KUSD", "totalSupply")).toBe(kusd(310_000));
  });

  it("pays a redemption only from its own reserve, whatever the other PSMs hold", async () => {
    const reason = await revertReason(c.send(user, psmB, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(20_000)]));
    expect(reason).toBe("InsufficientStableReserves()");
    expect(await usdcOf(psmA)).toBe(usdc(300_000));
  });

  it("keeps redeemed kUSD (no burn) and charges the tier fee in kUSD", async () => {
    const supplyBefore = await c.read<bigint>(KUSD, "KUSD", "totalSupply");
    const usdcBefore = await usdcOf(user);
    await c.send(user, psmB, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(5_000)]);
    // Below 50k USDC the fee is 10 bps: 5 kUSD, so 4,995 USDC is paid out.
    expect((await usdcOf(user)) - usdcBefore).toBe(usdc(4_995));
    expect(await usdcOf(psmB)).toBe(usdc(10_000) - usdc(4_995));
    expect(await balance(KUSD, psmB)).toBe(kusd(5_000));
    expect(await c.read<bigint>(KUSD, "KUSD", "totalSupply")).toBe(supplyBefore);
  });

  it("uses the fee of the amount's tier", async () => {
    expect(await c.read<bigint>(psmA, "KUSDPSM", "getFee", [USDC, kusd(49_999)])).toBe(kusd(49_999) * 10n / 10_000n);
    expect(await c.read<bigint>(psmA, "KUSDPSM", "getFee", [USDC, kusd(60_000)])).toBe(kusd(60_000) * 8n / 10_000n);
    expect(await c.read<bigint>(psmA, "KUSDPSM", "getFee", [USDC, kusd(500_000)])).toBe(kusd(500_000) * 7n / 10_000n);
    expect(await c.read<bigint>(psmA, "KUSDPSM", "getFee", [USDC, kusd(2_000_000)])).toBe(kusd(2_000_000) * 5n / 10_000n);
  });

  it("stops minting once MINTER_ROLE is revoked, while redemption still works", async () => {
    await c.send(admin, KUSD, "KUSD", "revokeRole", [MINTER_ROLE, psmB]);
    expect(await revertReason(c.send(user, psmB, "KUSDPSM", "swapStableForKUSD", [USDC, usdc(100)]))).toBe("KusdMintFailed()");
    const before = await usdcOf(user);
    await c.send(user, psmB, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(1_000)]);
    expect((await usdcOf(user)) - before).toBe(usdc(999));
  });

  it("stops minting when minting is disabled", async () => {
    await c.send(admin, psmA, "KUSDPSM", "setMintingEnabled", [false]);
    expect(await revertReason(c.send(user, psmA, "KUSDPSM", "swapStableForKUSD", [USDC, usdc(100)]))).toBe("KusdMintFailed()");
    await c.send(admin, psmA, "KUSDPSM", "setMintingEnabled", [true]);
  });

  it("lends the whole reserve in a flash loan that must be repaid in the same transaction", async () => {
    const reserve = await usdcOf(psmA);
    expect(await c.read<bigint>(psmA, "KUSDPSM", "maxFlashLoan", [USDC])).toBe(reserve);
    expect(await c.read<bigint>(psmA, "KUSDPSM", "flashFee", [USDC, reserve])).toBe(0n);
    const unpaid = await revertReason(c.send(user, borrower, "FlashBorrower", "borrow", [psmA, USDC, reserve, false]));
    expect(unpaid).toMatch(/insufficient allowance|ERC20InsufficientAllowance/);
    expect(await revertReason(c.send(user, borrower, "FlashBorrower", "borrow", [psmA, USDC, reserve + 1n, true]))).toBe("FlashLoanExceedsBalance()");
    await c.send(user, borrower, "FlashBorrower", "borrow", [psmA, USDC, reserve, true]);
    expect(await usdcOf(psmA)).toBe(reserve);
  });

  it("lets USDC out to the treasury only up to the skimmable surplus", async () => {
    const surplus = await c.read<bigint>(psmB, "KUSDPSM", "skimmableSurplus", [USDC]);
    expect(surplus).toBe(usdc(5 + 1)); // the two redemption fees above
    expect(await revertReason(c.send(admin, psmB, "KUSDPSM", "skimSurplus", [USDC, surplus + 1n]))).toBe("SkimExceedsSurplus()");
    await c.send(admin, psmB, "KUSDPSM", "skimSurplus", [USDC, surplus]);
    expect(await usdcOf(treasury)).toBe(surplus);
    expect(await c.read<bigint>(psmB, "KUSDPSM", "skimmableSurplus", [USDC])).toBe(0n);
  });

  it("refuses swaps while paused and resumes after unpause", async () => {
    await c.send(admin, psmA, "KUSDPSM", "pause");
    expect(await revertReason(c.send(user, psmA, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(10)]))).toBe("EnforcedPause()");
    await c.send(admin, psmA, "KUSDPSM", "unpause");
    await c.send(user, psmA, "KUSDPSM", "swapKUSDForStable", [USDC, kusd(10)]);
  });
});
