/**
 * The statement's verification, off the page's main thread: viem's SHA-256 and the two secp256k1
 * recoveries (the first builds noble's precomputed tables) would otherwise hold the main thread
 * for tens of milliseconds on a laptop, several times that on a phone. The page reads the texts
 * and posts them here; the answer is the verification, or the error's message.
 */
import { verifyStatementText } from "./verify-statement.js";

export type VerifyRequest = { statement: string; binding: string | null; operator: string };
export type VerifyAnswer =
  | { ok: true; result: Awaited<ReturnType<typeof verifyStatementText>> }
  | { ok: false; error: string };

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<VerifyRequest>) => void) | null;
  postMessage(answer: VerifyAnswer): void;
};

scope.onmessage = async ({ data }) => {
  try {
    scope.postMessage({ ok: true, result: await verifyStatementText(data.statement, data.binding, data.operator) });
  } catch (e) {
    scope.postMessage({ ok: false, error: (e as Error).message });
  }
};
