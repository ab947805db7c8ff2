/**
 * Issues, persists and schedules the hourly signed statement. A statement at the head is dated
 * now (the state of the latest indexed block is the state now); one issued for a past block is
 * dated at that block's time, and so signed by whichever key the binding assigns to that date.
 */
import type { PublishedStatement } from "@kusd/core";
import { ApiError } from "../http/errors.js";
import { type Rendered, rendered } from "../http/rendered.js";
import { memo } from "../io/memo.js";
import type { OperatorStore, StoredStatement } from "../store/operator-store.js";

const newLatestMemo = () => memo<{ statement: StoredStatement; rendered: Rendered }>({ max: 1, ttlMs: 1_000 });

import {
  buildStatementPayload,
  type SignerBinding,
  STATEMENT_COPIES,
  signPayload,
  signSignerBinding,
  withSignedCopies,
} from "@kusd/core";
import type { Hex } from "viem";
import type { ReportContext } from "../context.js";
import { indexerCaughtUp, reportBlockHash, resolveReportBlock } from "../context.js";
import { renderPorReport } from "../reserves/por-service.js";
import type { AnchorService } from "./anchor-service.js";
import { anchorView } from "./anchor-view.js";
import { type SigningKeys, signerFor } from "./keys.js";
import { recordVenueReading } from "./venue-records.js";

export const HOUR_SECONDS = 3_600;

export class StatementService {
  private bindingPromise: Promise<SignerBinding | null> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The signing cadence once start()ed (the signing API); null on a replica, which never signs. */
  private intervalSeconds: number | null = null;
  private reissuing: Promise<unknown> | null = null;

  /** Anchors each statement this service signs on Base (EAS); null on a replica, which never signs. */
  private anchors: Pick<AnchorService, "want"> | null = null;

  constructor(
    private readonly ctx: ReportContext,
    readonly store: Promise<OperatorStore>,
    private readonly keys: SigningKeys,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** Every statement signed from now on is also anchored by `anchors` (the signing API). */
  anchorWith(anchors: Pick<AnchorService, "want">) {
    this.anchors = anchors;
  }

  get bindingUrl() {
    return `${this.ctx.siteUrl}/api/por/signer-registry`;
  }

  /**
   * The operator-signed binding of the attestation key: signed here and kept in the store when
   * both keys are configured; otherwise (a read replica) the one the signing API stored; null
   * when there is none.
   */
  binding(): Promise<SignerBinding | null> {
    this.bindingPromise ??= (
      this.keys.operator && this.keys.attestation
        ? signSignerBinding(this.keys.operator, this.keys.attestation.address, this.keys.attestationFrom).then(
            async (b) => {
              await (await this.store).bindings.save(JSON.stringify(b));
              return b;
            },
          )
        : this.store
            .then((s) => s.bindings.latest())
            .then((stored) => {
              if (stored === null) this.bindingPromise = null; // not stored yet: ask again next time
              return stored === null ? null : (JSON.parse(stored) as SignerBinding);
            })
    ).catch((e) => {
      this.bindingPromise = null; // a store that was not reachable is asked again next time
      throw e;
    });
    return this.bindingPromise;
  }

  private latestMemo = newLatestMemo();

  /** Builds, signs and stores a statement at the head or at `block`. */
  async issue(block?: string): Promise<PublishedStatement> {
    // Without any key nothing can be signed: refuse before reading the chain (the service's timer
    // asks every minute, and each build of the report at the head costs RPC calls).
    if (!this.keys.operator && !this.keys.attestation)
      throw new ApiError("signer_not_configured", "no signing key is configured", {});
    let chainHead: bigint | null = null;
    if (block === undefined) {
      const sync = await indexerCaughtUp(this.ctx);
      chainHead = sync.chain;
      if (!sync.caughtUp) {
        throw new ApiError(
          "indexer_catching_up",
          "the indexer has not caught up with the chain; a statement dated now would describe an older state",
          {
            indexedBlock: sync.indexed === null ? null : Number(sync.indexed),
            chainBlock: sync.chain === null ? null : Number(sync.chain),
          },
        );
      }
    }
    const at = await resolveReportBlock(this.ctx, block);
    // A block keeps the first venue reading a statement recorded at it (venueBasisAt): a second
    // statement at a block the chain has not moved past reuses it, and records nothing new.
    const { report, venueNow } = await renderPorReport(this.ctx, at, { chainHead });
    const timestamp = at.atHead && block === undefined ? this.now() : Math.floor(Date.parse(report.timestamp) / 1000);
    const signer = signerFor(this.keys, timestamp);
    if (!signer)
      throw new ApiError("signer_not_configured", "no signing key is configured for this date", { timestamp });
    const binding = await this.binding();
    const payload = buildStatementPayload(report, {
      timestamp,
      chainName: this.ctx.network.name === "base" ? "Base Mainnet" : "Base (devnet, chain 8453)",
      signerRole: signer.role,
      bindingUrl: this.bindingUrl,
      bindingHash: (binding?.attestation_hash.toLowerCase() as Hex | undefined) ?? null,
    });
    const signed = await signPayload(signer.account, payload);
    const published = withSignedCopies(signed, STATEMENT_COPIES) as PublishedStatement;
    const store = await this.store;
    // The live venue reading this statement used, kept before the statement is served: the report
    // at its block (once past) is rebuilt with it, so every figure it signs can be reproduced.
    if (venueNow) {
      await recordVenueReading(store, this.ctx.network, {
        blockNumber: at.blockNumber,
        blockHash: report.blockHash,
        venueNow,
        statementHash: signed.attestation_hash,
      });
      this.ctx.venueRecords?.forget();
    }
    await store.statements.insert({
      attestationHash: signed.attestation_hash,
      signer: signed.signer,
      timestamp,
      blockNumber: at.blockNumber,
      chainId: this.ctx.network.chains.base.id,
      status: payload.status,
      artifact: JSON.stringify(published),
    });
    this.latestMemo = newLatestMemo(); // the next read sees this statement
    // Anchored beside, never before, publishing: until it lands the statement says pending.
    await this.anchors?.want(signed.attestation_hash).catch((e: unknown) => console.error("[anchor]", e));
    return published;
  }

  /**
   * Whether a stored statement is current on the signing API: younger than the cadence, and about
   * this chain (its signed report_block_hash is the chain's hash of that block now: not a block
   * reorged away, nor a block of an earlier devnet over the same store).
   */
  private async current(s: StoredStatement, intervalSeconds: number): Promise<boolean> {
    if (this.now() - s.timestamp >= intervalSeconds) return false;
    const signed = (JSON.parse(JSON.parse(s.artifact).signed_payload_canonical) as { report_block_hash?: unknown })
      .report_block_hash;
    const chain = await reportBlockHash(this.ctx, s.blockNumber);
    return typeof signed === "string" && chain !== null && signed.toLowerCase() === chain.toLowerCase();
  }

  /**
   * The newest stored statement; one is issued first when none is stored yet, and, on the
   * signing API, when the newest is not current (a restart over an old store must not serve a
   * stale statement, or one about another chain, until the next tick). If a fresh one cannot be
   * issued yet (the indexer is catching up), the newest stored one is served, with its own
   * signed time.
   */
  async latest(): Promise<StoredStatement> {
    const store = await this.store;
    const found = await store.statements.latest();
    if (!found) {
      await this.issue();
      return (await store.statements.latest())!;
    }
    if (this.intervalSeconds === null || (await this.current(found, this.intervalSeconds))) return found;
    try {
      this.reissuing ??= this.issue().finally(() => {
        this.reissuing = null;
      });
      await this.reissuing;
    } catch {
      return found;
    }
    return (await store.statements.latest()) ?? found;
  }

  /**
   * The latest statement, asked of the store at most once a second (concurrent callers share
   * the query), with its bytes' ETag. Statements are hourly; one issued here is seen at once.
   */
  latestRendered(): Promise<{ statement: StoredStatement; rendered: Rendered }> {
    return this.latestMemo("latest", async () => {
      const statement = await this.latest();
      return { statement, rendered: rendered(await this.withAnchor(statement.artifact, statement.attestationHash)) };
    });
  }

  /**
   * The published statement: the stored bytes (what was signed and hashed) with its `anchor`
   * beside them, unsigned: where on Base its hash was attested, or `pending`. The stored bytes
   * are kept as they are; the field is appended at the end of the object.
   */
  async withAnchor(artifact: string, attestationHash: string): Promise<string> {
    const stored = await (await this.store).anchors.get(attestationHash);
    return `${artifact.trimEnd().slice(0, -1)},"anchor":${JSON.stringify(anchorView(stored, this.ctx.network.chains.base.id))}}`;
  }

  /** Issues at once when the newest statement is older than the cadence, then every `intervalSeconds`. */
  start(intervalSeconds = HOUR_SECONDS, onError: (e: unknown) => void = (e) => console.error("[statements]", e)) {
    this.intervalSeconds = intervalSeconds;
    this.binding().catch(onError); // published (and stored for replicas) from the start
    const tick = async () => {
      try {
        const latest = await (await this.store).statements.latest();
        if (!latest || !(await this.current(latest, intervalSeconds))) await this.issue();
      } catch (e) {
        if (!(e instanceof ApiError && (e.code === "indexer_catching_up" || e.code === "not_indexed_yet"))) onError(e);
      }
    };
    void tick();
    // Checked every minute: the first statement lands as soon as the indexer has caught up,
    // and later ones when the newest is `intervalSeconds` old.
    this.timer = setInterval(tick, Math.min(intervalSeconds, 60) * 1000);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
  }
}
