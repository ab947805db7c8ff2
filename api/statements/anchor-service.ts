/**
 * Every signed statement anchored on Base: its hash attested through EAS (packages/core/src/network/eas.ts)
 * by the key that signed it, so when it was signed is on chain and a back-dated, rewritten or
 * withheld statement shows (packages/core/src/attestation/anchor.ts has the checks a reader runs).
 *
 * Publishing never waits for it: a statement is served at once, `anchor: {"status":"pending"}`
 * until the attestation is mined. Each statement is attested once: a row per statement hash in
 * the operator store, worked on only under a lease (two processes never send for one statement),
 * its transaction hash kept before the receipt is awaited, and the chain asked first whether the
 * attestation is already there (sent before a restart, or by another process). A failure (the
 * RPC down, gas short) is retried with capped, jittered backoff for as long as it takes.
 */

import {
  ANCHOR_SCHEMA,
  ANCHOR_SCHEMA_UID,
  anchorData,
  anchorRecipient,
  decodeAnchorData,
  EAS_ADDRESS,
  easAbi,
  encodeAnchorData,
  SCHEMA_REGISTRY_ADDRESS,
  schemaRegistryAbi,
} from "@kusd/core";
import { countedHttp } from "@kusd/rpc";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  type LocalAccount,
  type PublicClient,
  parseEventLogs,
  zeroAddress,
  zeroHash,
} from "viem";
import type { OperatorStore, StoredAnchor } from "../store/operator-store.js";

export type AnchorEvent =
  | { type: "landed"; attestationHash: string; uid: string; found: boolean }
  | { type: "failed"; attestationHash: string; error: string; retryInMs: number };

export type AnchorServiceOptions = {
  store: Promise<OperatorStore>;
  /** The chain's RPC (Base's; the devnet's). */
  rpcUrl: string;
  chainId: number;
  /** The key that signed the statement with this signed time (null: none configured for it). */
  signerFor: (signedAt: number) => LocalAccount | null;
  /** How often pending anchors are looked at (ms). */
  pollMs?: number;
  /** How long a process holds a row it works on (ms): longer than a transaction takes to mine. */
  leaseMs?: number;
  backoff?: { baseMs: number; capMs: number };
  /** eth_getLogs' largest range on this RPC (blocks). */
  logRange?: bigint;
  onEvent?: (e: AnchorEvent) => void;
};

const DEFAULTS = { pollMs: 2_000, leaseMs: 120_000, backoff: { baseMs: 1_000, capMs: 300_000 }, logRange: 2_000n };

export class AnchorService {
  private readonly client: PublicClient;
  private readonly o: AnchorServiceOptions & typeof DEFAULTS;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private schemaKnown = false;

  constructor(o: AnchorServiceOptions) {
    this.o = { ...DEFAULTS, ...o };
    this.client = createPublicClient({ transport: this.transport() }) as PublicClient;
  }

  /** The chain, its calls counted under "anchoring" (kusd_rpc_calls_total); a failed call is retried by the next attempt, not here. */
  private transport() {
    return countedHttp(this.o.rpcUrl, "anchoring", { retryCount: 0, timeout: 15_000 });
  }

  /** Asks for the statement to be anchored (idempotent), and looks at once. */
  async want(attestationHash: string): Promise<void> {
    await (await this.o.store).anchors.want(attestationHash);
    this.kick();
  }

  start(): { stop: () => Promise<void> } {
    this.timer = setInterval(() => this.kick(), this.o.pollMs);
    this.timer.unref();
    this.kick();
    return { stop: () => this.stop() };
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass over the due anchors, unless one is running. */
  kick(): Promise<void> {
    this.running ??= this.due().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async due(): Promise<void> {
    const store = await this.o.store;
    const rows = await store.anchors.claimDue(this.o.leaseMs, 4).catch(() => [] as StoredAnchor[]);
    // One at a time: one key, one nonce sequence.
    for (const row of rows) await this.attempt(store, row);
  }

  private async attempt(store: OperatorStore, row: StoredAnchor): Promise<void> {
    const h = row.attestationHash as Hex;
    try {
      const statement = await store.statements.byHash(h);
      if (!statement) throw new Error(`statement ${h} is not in the store`);
      const payload = JSON.parse(JSON.parse(statement.artifact).signed_payload_canonical) as Record<string, unknown>;
      const signer = this.o.signerFor(statement.timestamp);
      if (!signer) throw new Error(`no key is configured for a statement signed at ${statement.timestamp}`);
      // Landed already: a transaction this row sent (before a restart), or any attestation of this
      // hash by this key since the statement's block (another process's).
      const landed =
        (row.txHash ? await this.fromReceipt(row.txHash as Hex, h) : null) ??
        (await this.findOnChain(h, signer.address, statement.blockNumber));
      if (landed) {
        await store.anchors.landed(h, landed);
        this.o.onEvent?.({ type: "landed", attestationHash: h, uid: landed.uid, found: true });
        return;
      }
      await this.ensureSchema(signer);
      const wallet = createWalletClient({ account: signer, transport: this.transport() });
      const txHash = await wallet.writeContract({
        chain: null,
        address: EAS_ADDRESS,
        abi: easAbi,
        functionName: "attest",
        args: [
          {
            schema: ANCHOR_SCHEMA_UID,
            data: {
              recipient: anchorRecipient(h),
              expirationTime: 0n,
              revocable: false,
              refUID: zeroHash,
              data: encodeAnchorData(anchorData(h, payload)),
              value: 0n,
            },
          },
        ],
      });
      await store.anchors.sent(h, txHash);
      const receipt = await this.client.waitForTransactionReceipt({
        hash: txHash,
        timeout: 60_000,
        pollingInterval: 500,
      });
      const mined = await this.fromReceipt(receipt.transactionHash, h);
      if (!mined) throw new Error(`attestation transaction ${txHash} ${receipt.status}, no Attested event`);
      await store.anchors.landed(h, mined);
      this.o.onEvent?.({ type: "landed", attestationHash: h, uid: mined.uid, found: false });
    } catch (e) {
      const error = (e as Error).message.split("\n")[0] ?? String(e);
      const exp = Math.min(this.o.backoff.capMs, this.o.backoff.baseMs * 2 ** Math.min(20, row.attempts - 1));
      const retryInMs = Math.round(exp / 2 + Math.random() * (exp / 2));
      await store.anchors.failed(h, error, retryInMs).catch(() => {});
      this.o.onEvent?.({ type: "failed", attestationHash: h, error, retryInMs });
    }
  }

  /** The statement's schema on the registry, registered once when it is missing. */
  private async ensureSchema(signer: LocalAccount): Promise<void> {
    if (this.schemaKnown) return;
    const record = await this.client.readContract({
      address: SCHEMA_REGISTRY_ADDRESS,
      abi: schemaRegistryAbi,
      functionName: "getSchema",
      args: [ANCHOR_SCHEMA_UID],
    });
    if (record.uid === zeroHash) {
      const wallet = createWalletClient({ account: signer, transport: this.transport() });
      const tx = await wallet.writeContract({
        chain: null,
        address: SCHEMA_REGISTRY_ADDRESS,
        abi: schemaRegistryAbi,
        functionName: "register",
        args: [ANCHOR_SCHEMA, zeroAddress, false],
      });
      const receipt = await this.client.waitForTransactionReceipt({ hash: tx, timeout: 60_000, pollingInterval: 500 });
      if (receipt.status !== "success") throw new Error(`registering the statement schema reverted (${tx})`);
    }
    this.schemaKnown = true;
  }

  /** The anchor a mined transaction made for `h`, or null (not mined, reverted, or another statement's). */
  private async fromReceipt(txHash: Hex, h: Hex) {
    const receipt = await this.client.getTransactionReceipt({ hash: txHash }).catch(() => null);
    if (receipt?.status !== "success") return null;
    for (const log of parseEventLogs({ abi: easAbi, eventName: "Attested", logs: receipt.logs })) {
      if (log.address.toLowerCase() !== EAS_ADDRESS.toLowerCase() || log.args.schemaUID !== ANCHOR_SCHEMA_UID) continue;
      if (await this.commitsTo(log.args.uid, h)) return this.landedAt(log.args.uid, txHash, receipt.blockNumber);
    }
    return null;
  }

  /** An attestation of `h` by `attester` since `fromBlock`, found in EAS's Attested logs. */
  private async findOnChain(h: Hex, attester: Address, fromBlock: bigint) {
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    for (let from = fromBlock; from <= head; from += this.o.logRange) {
      const to = from + this.o.logRange - 1n < head ? from + this.o.logRange - 1n : head;
      const logs = await this.client.getContractEvents({
        address: EAS_ADDRESS,
        abi: easAbi,
        eventName: "Attested",
        args: { recipient: anchorRecipient(h), attester, schemaUID: ANCHOR_SCHEMA_UID },
        fromBlock: from,
        toBlock: to,
      });
      for (const log of logs)
        if (await this.commitsTo(log.args.uid!, h))
          return this.landedAt(log.args.uid!, log.transactionHash, log.blockNumber);
    }
    return null;
  }

  private async commitsTo(uid: Hex, h: Hex): Promise<boolean> {
    const a = await this.client.readContract({
      address: EAS_ADDRESS,
      abi: easAbi,
      functionName: "getAttestation",
      args: [uid],
    });
    return decodeAnchorData(a.data)?.attestationHash.toLowerCase() === h.toLowerCase();
  }

  private async landedAt(uid: Hex, txHash: Hex, blockNumber: bigint) {
    const block = await this.client.getBlock({ blockNumber });
    return { uid, txHash, blockNumber, blockTime: Number(block.timestamp) };
  }
}
