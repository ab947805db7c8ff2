/**
 * 2026-07-03, the staking vault redeployed: skUSD and its incentive escrow, every staker but two
 * dust positions migrated from skUSD v1, and a late distribution into the superseded vault.
 */
import { maxUint256 } from "viem";
import type { Tx } from "../driver.js";
import { userKey } from "../keys.js";
import { DATES, HOUR, iso } from "../timeline.js";
import { kusd, STRATEGIST_ROLE } from "./constants.js";
import type { Chapter, HistoryWriter } from "./writer.js";

export const stakingVaults: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.skusdRedeploy, "skUSD redeploy and migration", async () => {
    const dep = k.deployer;
    await h.deploy("skUSD", "StakedKUSD", dep, [h.addr("kUSD"), h.addr("multisig")]);
    await h.deploy("incentiveEscrow", "IncentiveEscrow", dep, [
      h.addr("kUSD"),
      h.addr("skUSD"),
      k.operator.address,
      1200n,
      kusd(2_000_000),
      BigInt(iso("2027-01-31T00:00:00Z")),
    ]);
    await h.safe("skUSD", "grantRole", [STRATEGIST_ROLE, h.addr("incentiveEscrow")]);
    await h.send(k.operator, "kUSD", "approve", [h.addr("incentiveEscrow"), maxUint256]);
    await h.send(k.operator, "incentiveEscrow", "fund", [kusd(40_000)]);
    await migrateStakers(h);
  });
  h.schedule(DATES.skusdRedeploy + 6 * HOUR, "late distribution into the superseded vault", async () => {
    // Lands after the stakers left: the virtual shares of the offset absorb most of it,
    // so it is kUSD that no share can claim (the orphan).
    await h.send(k.operator, "skUSDDeprecated", "distributeYield", [kusd(1_500)]);
  });
};

/** Everyone leaves the superseded vault for the new one, except two dust positions. */
async function migrateStakers(h: HistoryWriter) {
  const k = h.keys;
  const dust: Record<string, bigint> = { [k.operator.address]: 600_000n, [k.externalDustHolder.address]: 250_000n };
  const holders = [
    k.operator.address,
    k.externalDustHolder.address,
    ...Array.from({ length: h.userCount }, (_, i) => userKey(i).address),
  ];
  const shares = await h.balances("skUSDDeprecated", holders);
  const leaving = holders
    .map((holder, i) => ({ holder, shares: shares[i]! - (dust[holder] ?? 0n) }))
    .filter((x) => x.shares > 0n);
  const assetsOut = await h.readMany(
    "skUSDDeprecated",
    "previewRedeem",
    leaving.map((x) => [x.shares]),
  );
  const txs: Tx[] = [];
  const deposits: Tx[] = [];
  for (const [i, { holder, shares: leave }] of leaving.entries()) {
    const assets = assetsOut[i]!;
    txs.push(h.tx(holder, "skUSDDeprecated", "redeem", [leave, holder, holder]));
    if (holder === k.externalDustHolder.address) continue;
    deposits.push(h.tx(holder, "kUSD", "approve", [h.addr("skUSD"), maxUint256]));
    deposits.push(h.tx(holder, "skUSD", "deposit", [assets, holder]));
  }
  await h.d.sendBlock(txs);
  await h.d.sendBlock(deposits);
}
