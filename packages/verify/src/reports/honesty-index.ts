/**
 * GET /api/honesty-index re-derived from the reader's own chain: the head pinned by its hash, each
 * window's start found again from the blocks' own timestamps (the last block at or before the
 * head's time minus the window, starting from the block the pins name), every vault's
 * convertToAssets(1 share) read at those blocks (each pinned by its hash), then the service's own
 * assembler (buildHonestyIndexPayload). The peers (KUSD_HONESTY_PEERS) are the service's
 * declaration, and skUSD's advertised APY is the expectedAPY /api/apy modelled when the board was
 * built: both declared, never equal. Vaults on Ethereum are read from the reader's Ethereum RPC
 * (--ethereum-rpc), at the Ethereum head the pins name, by its hash; without one they are not read.
 */
import {
  type BlockPin,
  BOARD_WINDOWS_DAYS,
  type BoardVault,
  type BoardWindow,
  buildHonestyIndexPayload,
  type HonestyIndex,
  type HonestyIndexInputs,
  HonestyIndexSchema,
  honestyIndexDocument,
  ownBoardVaults,
} from "@kusd/core";
import { createPublicClient, type PublicClient } from "viem";
import { boardWindows, type HeaderAt, headersOf, readBoardVaults } from "../read-plan/honesty-index-reads.js";
import { classifyFigures, type RestingInput } from "../rederive/classify.js";
import { NetworkMismatchError } from "../rederive/network-check.js";
import type { Check } from "../rederive/rederive-checks.js";
import { pinnedBlock, pinnedClients, RederivationError } from "../rederive/rederive-statement.js";
import { isPin, openPinnedChain, parseReport, type ReaderSources, type ReportVerifier } from "./report-verifier.js";

/** The signature of a signed board: checked by the signature path (kusd-verify --signer/--binding), not a figure. */
const SIGNATURE_FIELDS = new Set(["attestation_hash", "signature", "signer", "signed_payload_canonical"]);

/** Headers from the reader's RPC; one it does not serve stops the re-derivation (exit 2), never a guess. */
function readerHeaders(client: PublicClient): HeaderAt {
  const header = headersOf(client);
  return (n) =>
    header(n).catch((e: Error) => {
      throw new RederivationError("rpc_failed", `the RPC did not answer for block ${n}: ${e.message.split("\n")[0]}`, {
        block: String(n),
      });
    });
}

const sameBlock = (a: BlockPin | null, b: BlockPin | null) =>
  a === null || b === null ? a === b : a.number === b.number && a.hash.toLowerCase() === b.hash.toLowerCase();

const shown = (b: BlockPin | null) =>
  b ? `block ${b.number} (${new Date(b.timestamp * 1000).toISOString()})` : "none";

/** Each window's start as the reader's chain has it, against the one the pins name. */
function windowCheck(
  mine: BoardWindow[],
  pinned: readonly (BoardWindow & { chain: string })[],
  chain: "base" | "ethereum" = "base",
): Check {
  const wrong = mine.flatMap((w) => {
    const p = pinned.find((x) => x.chain === chain && x.days === w.days);
    if (p && p.target === w.target && sameBlock(p.block, w.block) && sameBlock(p.next, w.next)) return [];
    return [
      p
        ? `${chain} ${w.days}d: the pins name ${shown(p.block)} for ${new Date(p.target * 1000).toISOString()}; the last block at or before ${new Date(w.target * 1000).toISOString()} is ${shown(w.block)}, the next ${shown(w.next)}`
        : `${chain} ${w.days}d: the pins name no start block`,
    ];
  });
  const starts = mine.map((w) => `${w.days}d ${w.block ? w.block.number : "none"}`).join(", ");
  return {
    name: chain === "base" ? "window blocks" : "ethereum window blocks",
    ok: wrong.length === 0,
    detail:
      wrong.length === 0
        ? `each window starts at the last block at or before the head's time minus the window, as the pins name it (${starts}): its time and the next block's bracket the target`
        : wrong.join("; "),
  };
}

const PROBE_ADDRESS = "0x00000000000000000000000000000000000000b0";

/** Other values of every configured field of a peer: a figure that moves with them is its declaration. */
const probedPeer = (p: BoardVault): BoardVault => ({
  name: `${p.name} (probe)`,
  chain: p.chain === "base" ? "ethereum" : "base",
  address: PROBE_ADDRESS,
  shareDecimals: p.shareDecimals + 1,
  assetDecimals: p.assetDecimals + 1,
  advertised: typeof p.advertised === "number" ? p.advertised + 0.01 : p.advertised,
});

/** The Ethereum head the pins name, by its hash on the reader's Ethereum RPC, and each window's start found again there. */
async function ethereumSide(pins: HonestyIndex["pins"], s: ReaderSources) {
  const pinned = pins.ethereumBlock;
  if (!pinned || !s.ethereumRpc) return null;
  const { transport, client } = pinnedClients(s.ethereumRpc, BigInt(pinned.number), pinned.hash);
  const chainId = await client.getChainId();
  if (chainId !== s.network.chains.ethereum.id)
    throw new NetworkMismatchError(
      `--ethereum-rpc serves chain ${chainId}; the board's Ethereum vaults are on chain ${s.network.chains.ethereum.id}: pass an Ethereum RPC as --ethereum-rpc`,
      { network: s.networkName, expected: String(s.network.chains.ethereum.id), found: String(chainId) },
    );
  const block = await pinnedBlock(client, BigInt(pinned.number), pinned.hash);
  const head: BlockPin = { number: Number(block.number), hash: block.hash, timestamp: block.timestamp };
  const hints = new Map(
    pins.windows.flatMap((w) => {
      const at = w.block?.number ?? w.next?.number;
      return w.chain === "ethereum" && at !== undefined ? [[w.days, at] as const] : [];
    }),
  );
  const windows = await boardWindows(readerHeaders(createPublicClient({ transport }) as PublicClient), head, hints);
  const clients = new Map<number, PublicClient>([[head.number, client]]);
  const clientAt = (b: BlockPin) => {
    if (!clients.has(b.number)) clients.set(b.number, pinnedClients(transport, BigInt(b.number), b.hash).client);
    return clients.get(b.number)!;
  };
  return { reads: { head, windows }, clientAt };
}

export const honestyIndexVerifier: ReportVerifier = {
  report: "honesty-index",
  path: "/api/honesty-index",
  async rederive(input, s) {
    const published = parseReport(HonestyIndexSchema, input, "/api/honesty-index");
    const pins = published.pins;
    const n = s.network;
    const own = ownBoardVaults(n);
    const { transport, client, block } = await openPinnedChain(
      pins,
      s,
      own.map((v) => v.address),
    );
    const head: BlockPin = { number: Number(block.number), hash: block.hash, timestamp: block.timestamp };
    const hints = new Map(
      pins.windows.flatMap((w) => {
        const at = w.block?.number ?? w.next?.number;
        return w.chain === "base" && at !== undefined ? [[w.days, at] as const] : [];
      }),
    );
    const windows = await boardWindows(readerHeaders(createPublicClient({ transport }) as PublicClient), head, hints);
    // Every read at a window's start is pinned to the hash the reader's chain gives that block.
    const clients = new Map<number, PublicClient>([[head.number, client]]);
    const clientAt = (b: BlockPin) => {
      if (!clients.has(b.number)) clients.set(b.number, pinnedClients(transport, BigInt(b.number), b.hash).client);
      return clients.get(b.number)!;
    };
    const vaults = [...own, ...pins.peers];
    const onEthereum = vaults.filter((v) => v.chain === "ethereum");
    const eth = onEthereum.length > 0 && s.ethereumRpc ? await ethereumSide(pins, s) : null;
    const { reads, failedReads } = await readBoardVaults(vaults, {
      base: { head, windows, clientAt, commandRpcUrl: n.reporting.publicRpc.base },
      ethereum: eth && { ...eth.reads, clientAt: eth.clientAt, commandRpcUrl: n.reporting.publicRpc.ethereum },
    });
    if (!eth)
      failedReads.push(
        ...onEthereum.map(
          (v) => `${v.name} on ethereum (${v.address}): not read, no Ethereum RPC was given (--ethereum-rpc)`,
        ),
      );
    const inputs: HonestyIndexInputs = {
      now: published.timestamp,
      network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
      own,
      peers: pins.peers,
      expectedAPY: pins.expectedAPY,
      chains: {
        base: { head, windows },
        ethereum:
          eth?.reads ??
          (pins.ethereumBlock && {
            head: pins.ethereumBlock,
            windows: pins.windows.filter((w) => w.chain === "ethereum").map(({ chain: _, ...w }) => w),
          }),
      },
      reads,
    };
    const resting: RestingInput<HonestyIndexInputs>[] = [
      {
        category: "declared",
        perturb: [
          (i) => ({ ...i, peers: i.peers.map(probedPeer) }),
          (i) => ({ ...i, peers: i.peers.map((p) => ({ ...p, advertised: p.advertised === null ? 0.5 : null })) }),
        ],
        note: "declared in the service's configuration (KUSD_HONESTY_PEERS), as the board's pins publish it",
      },
      {
        category: "declared",
        perturb: [(i) => ({ ...i, expectedAPY: (i.expectedAPY ?? 0) + 0.01 }), (i) => ({ ...i, expectedAPY: null })],
        note: "skUSD's advertised APY: /api/apy expectedAPY when the board was built (pins.expectedAPY), the service's model of the deployed book from the venue's funding rates and its yield policy; the board compares against it and does not re-derive it (kusd-verify --report on /api/apy does)",
      },
    ];
    const rows = classifyFigures<HonestyIndexInputs>({
      published,
      inputs,
      build: (i) => honestyIndexDocument(buildHonestyIndexPayload(i), null),
      resting,
      withoutReads: (i) => ({
        ...i,
        chains: { base: null, ethereum: null },
        reads: i.reads.map(() => ({ end: null, starts: BOARD_WINDOWS_DAYS.map(() => null) })),
      }),
      skip: (f) => isPin(f) || SIGNATURE_FIELDS.has(f),
    });
    const checks: Check[] = [windowCheck(windows, pins.windows)];
    if (eth) checks.push(windowCheck(eth.reads.windows, pins.windows, "ethereum"));
    else if (onEthereum.length > 0)
      checks.push({
        name: "ethereum vaults",
        ok: false,
        detail: `${onEthereum.map((v) => v.name).join(", ")} on ethereum: not re-derived (pass --ethereum-rpc)`,
      });
    return {
      report: "honesty-index",
      block,
      rows,
      failedReads,
      checks,
      unproven: { figures: "all", source: "the vaults' reads at each window's start block" },
    };
  },
};
