/**
 * The calls readers may cause at a provider, apart from what the service needs for itself (the
 * indexer, the statements, anchoring, paid settlement): a token bucket per process, taken before a
 * call is sent. Only the readers' clients go through it (`readerHttp`); every other transport never
 * sees it.
 *
 * A request is let in by its first call, and only while no admitted request is waiting for tokens:
 * once in, its calls wait their turn up to a bound for the whole request (however many calls it
 * makes). A refused call fails with the error `refuse` makes, and marks its request, which answers
 * 503 as a whole (reader-scope.ts). So under a flood the budget is spent on requests that complete:
 * one let in takes the next tokens before anyone new, and a request refused at its door has spent
 * nothing (let each call compete alike, and every request of a flood gets its first calls and is
 * refused a later one: the budget spent, nothing answered).
 *
 * A quarter of the burst is kept for the reads every reader shares: a request whose reads are its
 * own (`ReaderScope.own`: a past block, a tool call) takes only what lies above it, so a reader
 * asking past block after past block never leaves the next block's report at the head unread.
 */
import type { HttpTransportConfig, Transport } from "viem";
import { currentReaderScope, noteRefusal, registerRefusal } from "./reader-scope.js";
import { countedHttp, processRpcTally, type RpcPurpose, type RpcTally } from "./rpc-calls.js";
import { TokenBucket } from "./token-bucket.js";

export type ReaderBudgetOptions = {
  /** Tokens a second (a JSON-RPC call takes one; a venue request its weight). */
  perSecond: number;
  burst: number;
  /** How long a request waits for tokens in all before its call is refused. */
  maxWaitMs: number;
  /** The error a refused call fails with, told the whole seconds until the bucket holds what it needed. */
  refuse: (retryAfterSeconds: number) => Error;
  now?: () => number;
};

/** What the budget has done, for /metrics. */
export type ReaderBudgetUse = {
  /** Tokens taken (calls sent, or their weight). */
  taken: number;
  /** Takings refused (calls, or venue requests). */
  refusals: number;
};

export class ReaderBudget {
  private readonly bucket: TokenBucket;
  private readonly use: ReaderBudgetUse = { taken: 0, refusals: 0 };
  private readonly waits = new Set<(seconds: number) => void>();

  constructor(private readonly o: ReaderBudgetOptions) {
    this.bucket = new TokenBucket(o.perSecond, o.burst, o.now);
  }

  get perSecond() {
    return this.o.perSecond;
  }
  get burst() {
    return this.o.burst;
  }

  /** Tokens left now; below zero, what waiting calls have reserved ahead. */
  tokens(): number {
    return this.bucket.available();
  }

  used(): ReaderBudgetUse {
    return { ...this.use };
  }

  /** Told how long each call that had to wait waited (seconds). */
  onWait(listener: (seconds: number) => void): () => void {
    this.waits.add(listener);
    return () => this.waits.delete(listener);
  }

  /**
   * Takes `n` tokens, waiting for them within the request's bound; throws the refusal (and marks
   * the request) when they are not there in time. A request already refused waits no more.
   */
  async take(n: number): Promise<void> {
    const scope = currentReaderScope();
    if (scope?.refusal) {
      this.use.refusals += 1;
      throw scope.refusal;
    }
    const now = Date.now();
    const first = scope !== undefined && scope.wait.until === null;
    if (scope) scope.wait.until ??= now + this.o.maxWaitMs;
    const until = scope?.wait.until ?? now + this.o.maxWaitMs;
    const keep = scope?.own ? Math.floor(this.o.burst / 4) : 0;
    const r = this.bucket.reserve(n, Math.max(0, until - now), { behindNone: first, keep });
    if (!r.ok) {
      this.use.refusals += 1;
      const refusal = registerRefusal(this.o.refuse(Math.max(1, Math.ceil(r.retryAfterMs / 1000))));
      noteRefusal(refusal);
      throw refusal;
    }
    this.use.taken += n;
    if (r.waitMs <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, r.waitMs));
    // The request was refused another read meanwhile: this one would be spent for nothing.
    if (scope?.refusal) {
      this.bucket.refund(n);
      this.use.taken -= n;
      this.use.refusals += 1;
      throw scope.refusal;
    }
    for (const listener of this.waits) listener(r.waitMs / 1000);
  }
}

/** `transport` with each call taking one token of `budget` before it is sent (a batch of N takes N). */
export function budgetedTransport(transport: Transport, budget: ReaderBudget): Transport {
  return (params) => {
    const inner = transport(params);
    const request: typeof inner.request = async (args, options) => {
      await budget.take(1);
      return inner.request(args, options);
    };
    return { ...inner, request };
  };
}

/** viem's `http`, counted under `purpose` (countedHttp), each call drawn from the readers' `budget`. */
export function readerHttp(
  url: string,
  purpose: RpcPurpose,
  budget: ReaderBudget,
  options: HttpTransportConfig = {},
  tally: RpcTally = processRpcTally(),
): Transport {
  return budgetedTransport(countedHttp(url, purpose, options, tally), budget);
}
