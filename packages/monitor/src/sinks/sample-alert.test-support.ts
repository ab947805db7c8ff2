/** One violation with a listed sender (label with characters every format must escape), for sink tests. */
import type { MonitorMessage } from "../deliver.js";
import { registryLookup } from "../messages/registry-lookup.js";
import { renderAlert } from "../messages/render.js";

export const SAMPLE_FROM = "0x1111111111111111111111111111111111111111";
export const sampleViolation: MonitorMessage = {
  type: "alert",
  kind: "violation",
  id: "v1",
  blockNumber: 42,
  tokenSymbol: "kUSD",
  amountRaw: "2500000000000000000",
  decimals: 18,
  from: SAMPLE_FROM,
  to: "0x2222222222222222222222222222222222222222",
  txHash: `0x${"ab".repeat(32)}`,
  timestamp: "2026-05-14T00:00:00.000Z",
};
export const sampleRegistry = registryLookup([{ address: SAMPLE_FROM, role: "treasury", label: "Ops <wallet> & co" }]);
export const sampleView = renderAlert(sampleViolation, { registry: sampleRegistry });
