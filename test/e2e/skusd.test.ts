/** skUSD (StakedKUSD): 24-decimal shares, linearly vested yield, donations no share claims. */

import { type Address, keccak256, maxUint256, parseUnits, stringToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetKey } from "../../devnet/keys.js";
import { startTestChain, type TestChain } from "../helpers/test-chain.js";

const admin = devnetKey("test:admin").address;
const staker = devnetKey("test:staker").address;
const kusd = (n: number) => parseUnits(String(n), 18);
const ONE_SHARE = 10n ** 24n;
const DAY = 86_400; // the deployed skUSD's default vesting period

let c: TestChain;
let KUSD: Address;
let vault: Address;

/** ERC-4626 with decimals offset 6: assets = shares · (totalAssets + 1) / (totalSupply + 10^6). */
const expectedAssets = (shares: bigint, totalAssets: bigint, supply: bigint) =>
  (shares * (totalAssets + 1n)) / (supply + 10n ** 6n);

beforeAll(async () => {
  c = await startTestChain();
  await c.d.setBalances([admin, staker], 10n ** 22n);
  KUSD = await c.deploy("KUSD", admin, [admin]);
  vault = await c.deploy("StakedKUSD", admin, [KUSD, admin]);
  await c.send(admin, KUSD, "KUSD", "grantRole", [keccak256(stringToHex("MINTER_ROLE")), admin]);
  await c.send(admin, KUSD, "KUSD", "mint", [staker, kusd(1_000)]);
  await c.send(admin, KUSD, "KUSD", "mint", [admin, kusd(1_000)]);
  await c.send(staker, KUSD, "KUSD", "approve", [vault, maxUint256]);
  await c.send(admin, KUSD, "KUSD", "approve", [vault, maxUint256]);
});

afterAll(() => c?.stop());

describe("skUSD", () => {
  it("issues 24-decimal shares: 1 kUSD buys 1e24 raw share units at par", async () => {
    expect(await c.read<number>(vault, "StakedKUSD", "decimals")).toBe(24);
    await c.send(staker, vault, "StakedKUSD", "deposit", [kusd(1_000), staker]);
    expect(await c.read<bigint>(vault, "StakedKUSD", "balanceOf", [staker])).toBe(1_000n * ONE_SHARE);
  });

  it("vests a distribution linearly over the vesting period", async () => {
    await c.send(admin, vault, "StakedKUSD", "distributeYield", [kusd(70)]);
    const at = async () => c.read<bigint>(vault, "StakedKUSD", "totalAssets");
    expect(await at()).toBe(kusd(1_000));
    expect(await c.read<bigint>(vault, "StakedKUSD", "yieldVestingPeriod")).toBe(BigInt(DAY));
    await c.advance(DAY / 2 - 2); // the send itself moved the clock 2 s
    expect(await at()).toBe(kusd(1_035));
    await c.advance(DAY / 2);
    expect(await at()).toBe(kusd(1_070));
    const [assets, supply] = [await at(), await c.read<bigint>(vault, "StakedKUSD", "totalSupply")];
    expect(await c.read<bigint>(vault, "StakedKUSD", "convertToAssets", [ONE_SHARE])).toBe(
      expectedAssets(ONE_SHARE, assets, supply),
    );
  });

  it("does not let shares claim kUSD sent by plain transfer", async () => {
    const before = await c.read<bigint>(vault, "StakedKUSD", "totalAssets");
    await c.send(admin, KUSD, "KUSD", "transfer", [vault, kusd(100)]);
    expect(await c.read<bigint>(vault, "StakedKUSD", "totalAssets")).toBe(before);
    await c.send(admin, vault, "StakedKUSD", "sweepDonations", [admin]);
    expect(await c.read<bigint>(KUSD, "KUSD", "balanceOf", [vault])).toBe(before);
  });
});
