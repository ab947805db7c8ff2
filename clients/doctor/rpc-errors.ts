/**
 * How the doctor tells an RPC's answers apart: pruned historical state ("archive"), no answer at
 * all ("unreachable": RpcUnreachableError, exit 2 in the CLI, never a FAIL row), and any other
 * refusal; and how an error is shown, as one short line without the provider's URL or body.
 */

import { KusdError } from "@kusd/core";
import { BaseError, ContractFunctionRevertedError, HttpRequestError, TimeoutError } from "viem";

/** An RPC did not answer (connection, timeout, rate limit, auth): no verdict was reached. */
export class RpcUnreachableError extends KusdError<{ chain: "base" | "ethereum"; cause: unknown }> {
  override name = "RpcUnreachableError";
  readonly code: string = "rpc_unreachable";
  constructor(message: string, details: { chain: "base" | "ethereum"; cause: unknown }) {
    super(message, details);
  }
}

/**
 * "archive": the node answered but has pruned the state asked for. "unreachable": the request
 * did not get an answer (connection, timeout, auth, rate limit). "other": any other refusal.
 */
export function classifyRpcError(error: unknown): "archive" | "unreachable" | "other" {
  if (ARCHIVE_ERROR.test(errorText(error))) return "archive";
  for (const e of causes(error)) {
    if (e instanceof TimeoutError) return "unreachable";
    if (e instanceof HttpRequestError && (e.status === undefined || UNREACHABLE_STATUS.has(e.status)))
      return "unreachable";
  }
  return "other";
}

/** How geth, reth, erigon, nethermind and hosted providers say that historical state is gone. */
const ARCHIVE_ERROR =
  /missing trie node|header not found|historical state|state (?:is )?(?:not available|unavailable|pruned)|is pruned|no state available|state for block .* not available|archive (?:state|data|node)|does not have access to archive/i;
/** No answer worth reading: auth refused, method or URL not found, rate limited, gateway down. */
const UNREACHABLE_STATUS = new Set([401, 403, 404, 407, 429, 502, 503, 504]);

/** The error and its causes, outermost first (bounded: a cause chain may loop). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 10; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

function errorText(error: unknown): string {
  const parts: string[] = [];
  for (const e of causes(error)) {
    const { message, details, shortMessage } = e as { message?: unknown; details?: unknown; shortMessage?: unknown };
    for (const part of [shortMessage, details, message]) if (typeof part === "string") parts.push(part);
  }
  return parts.join("\n");
}

/** A revert still ran the call against the state it asked for. */
export function isRevert(error: unknown): boolean {
  return error instanceof BaseError && /revert/i.test(errorText(error));
}

/** An error as one short line: viem's messages carry the URL (often with an API key) and the request body. */
export function oneLine(error: unknown): string {
  let text: string;
  const reverted = causes(error).find(
    (e): e is ContractFunctionRevertedError => e instanceof ContractFunctionRevertedError,
  );
  if (reverted)
    text = `reverted${reverted.reason ? `: ${reverted.reason}` : reverted.signature ? ` with custom error ${reverted.signature}` : ""}`;
  else if (error instanceof BaseError) {
    const headline = error.shortMessage.split("\n")[0]!;
    const details = (error.walk() as BaseError).details || error.details;
    text = details && !headline.includes(details) ? `${headline} (${details})` : headline;
  } else text = error instanceof Error ? error.message : String(error);
  text = text.replace(/\s+/g, " ").trim();
  return text.length > 240 ? `${text.slice(0, 237)}...` : text;
}

/** The base RPC stopped answering during `during`: the run ends without a verdict. */
export function unreachable(cause: unknown, during: string): RpcUnreachableError {
  return new RpcUnreachableError(`the base RPC stopped answering during the ${during} check: ${oneLine(cause)}`, {
    chain: "base",
    cause,
  });
}

/** One line for a refusal worth reporting; an unreachable RPC is thrown on, not reported. */
export function rethrowUnreachable(error: unknown): string {
  if (classifyRpcError(error) === "unreachable") throw error;
  return oneLine(error);
}
