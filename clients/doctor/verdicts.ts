/**
 * The doctor's judgements, as pure functions of what the provider showed: the start block
 * against the deployment, a feed's answers against its configuration, the eth_getLogs spans to
 * probe and the widest one accepted against the configured range; and the bisection that finds
 * a deployment block when no creation tx is known.
 */
import { formatUnits } from "viem";
import type { DoctorFeed, Verdict } from "./types.js";

/** Ranges probed, widest first; the configured range is probed too, so its verdict is exact. */
export const LOG_RANGE_PROBES = [100_000, 10_000, 2_000, 1_000, 500, 100] as const;

/** The first block in [lo, hi] where `holds` is true, given that it is true at `hi` and stays true once true. */
export async function bisectFirstBlock(
  lo: number,
  hi: number,
  holds: (block: number) => Promise<boolean>,
): Promise<number> {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (await holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A start block after the deployment silently drops the first events; before it only costs scanning. */
export function judgeStartBlock(startBlock: number, deploymentBlock: number): Verdict {
  const gap = deploymentBlock - startBlock;
  if (gap > 0) return { result: "ok", detail: `start block ${startBlock} starts ${gap} blocks before the deployment` };
  if (gap === 0) return { result: "ok", detail: `start block ${startBlock} is the deployment block` };
  return { result: "FAIL", detail: `start block ${startBlock} would miss the first ${-gap} blocks of history` };
}

export type FeedObservation = {
  description: { ok: true; value: string } | { ok: false; error: string };
  decimals: { ok: true; value: number } | { ok: false; error: string };
  round: { ok: true; answer: bigint; updatedAt: number } | { ok: false; error: string };
};

/** Everything wrong with a feed at once, so one run shows every fix; staleness alone only warns. */
export function judgeFeed(feed: DoctorFeed, observed: FeedObservation, headTimestamp: number): Verdict {
  const problems: string[] = [];
  const facts: string[] = [];
  const { description, decimals, round } = observed;
  if (!description.ok) problems.push(`description() failed: ${description.error}`);
  else if (
    typeof feed.expectDescription === "string"
      ? description.value !== feed.expectDescription
      : !feed.expectDescription.test(description.value)
  ) {
    problems.push(
      `description() is ${JSON.stringify(description.value)}, expected ${typeof feed.expectDescription === "string" ? JSON.stringify(feed.expectDescription) : feed.expectDescription}`,
    );
  } else facts.push(JSON.stringify(description.value));
  if (!decimals.ok) problems.push(`decimals() failed: ${decimals.error}`);
  else if (decimals.value !== feed.decimals)
    problems.push(`decimals() is ${decimals.value}, expected ${feed.decimals}`);
  else facts.push(`${decimals.value} decimals`);
  let stale: string | null = null;
  if (!round.ok) problems.push(`latestRoundData() failed: ${round.error}`);
  else if (round.answer <= 0n) problems.push(`latestRoundData() answer is ${round.answer}, not positive`);
  else {
    const age = Math.max(0, headTimestamp - round.updatedAt);
    const shown = decimals.ok ? formatUnits(round.answer, decimals.value) : String(round.answer);
    facts.push(`answer ${shown}, updated ${age} s before the head`);
    if (feed.maxAgeSeconds !== undefined && age > feed.maxAgeSeconds)
      stale = `stale: updated ${age} s before the head, more than ${feed.maxAgeSeconds} s`;
  }
  if (problems.length > 0)
    return { result: "FAIL", detail: `${feed.address}: ${problems.join("; ")} [from: ${feed.source}]` };
  if (stale) return { result: "warn", detail: `${facts.join(", ")}; ${stale}` };
  return { result: "ok", detail: facts.join(", ") };
}

export type LogRangeProbe = {
  /** Widest span (in blocks) the provider answered, or null when it refused even the narrowest. */
  accepted: number | null;
  /** Blocks in the chain (head + 1): no probe can span more. */
  chainLength: number;
  /** Refused spans, widest first, with the provider's reason. */
  rejected: { span: number; reason: string }[];
};

/** The spans to probe below a head, widest first, each at most the chain's length and probed once. */
export function logRangeSpans(configured: number | null, chainLength: number): number[] {
  const spans = [...LOG_RANGE_PROBES, ...(configured ? [configured] : [])].map((s) => Math.min(s, chainLength));
  return [...new Set(spans)].sort((a, b) => b - a);
}

export function judgeLogRange(configured: number | null, probe: LogRangeProbe): Verdict {
  const { accepted, chainLength, rejected } = probe;
  const firstRefusal = rejected[0] ? ` (${rejected[0].span} blocks: ${rejected[0].reason})` : "";
  if (accepted === null)
    return {
      result: "FAIL",
      detail: `eth_getLogs refused every range down to ${rejected.at(-1)?.span ?? 0} blocks${firstRefusal}`,
    };
  const largest = `largest accepted range ${accepted} blocks${rejected.length ? `, refused${firstRefusal}` : ""}`;
  if (configured === null)
    return {
      result: "ok",
      detail: `${largest}; Ponder starts at 500 blocks and grows slowly: set KUSD_ETH_GET_LOGS_BLOCK_RANGE=${accepted}`,
    };
  if (configured <= accepted) return { result: "ok", detail: `configured ${configured} ≤ ${largest}` };
  // Only a devnet is shorter than the configured range: it cannot be probed there.
  if (accepted === chainLength)
    return {
      result: "warn",
      detail: `configured ${configured}, but the chain has only ${chainLength} blocks to probe (all accepted)`,
    };
  return { result: "FAIL", detail: `configured ${configured} > ${largest}` };
}

/**
 * Gas for anchoring statements (an EAS attestation an hour from the signing key, docs/running-on-base.md):
 * none is a FAIL (every anchor would fail), under `weeks` of anchors a warning.
 */
export function judgeAnchorGas(balanceWei: bigint, perAnchorWei: bigint, weeks = 4): Verdict {
  const anchors = perAnchorWei > 0n ? balanceWei / perAnchorWei : 0n;
  const eth = (Number(balanceWei) / 1e18).toFixed(6);
  if (balanceWei === 0n)
    return {
      result: "FAIL",
      detail: "holds no ETH: no statement can be anchored (one EAS attestation an hour needs gas)",
    };
  if (anchors < BigInt(weeks * 7 * 24))
    return {
      result: "warn",
      detail: `${eth} ETH: about ${anchors} hourly anchors at the current fee, under ${weeks} weeks`,
    };
  return { result: "ok", detail: `${eth} ETH: about ${anchors} hourly anchors at the current fee` };
}
