/**
 * Payment headers for the fuzz suite: an x402 v2 exact-EVM payment in the right shape with any
 * field dropped, retyped or replaced, random signatures (so none can ever settle), and headers
 * that are not base64 JSON at all.
 */
import fc from "fast-check";

type Requirements = Record<string, unknown>;

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString("hex")}`);
const anyJson = () => fc.jsonValue({ maxDepth: 2 });
/** The right value most of the time, else something else entirely, else absent. */
const maybe = <T>(right: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 6, arbitrary: right },
    { weight: 1, arbitrary: anyJson() },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

export const paymentHeader = (requirements: Requirements, payer: string, now: number): fc.Arbitrary<string> => {
  const authorization = fc.record({
    from: maybe(fc.constantFrom(payer, payer.toLowerCase(), "0x0000000000000000000000000000000000000000")),
    to: maybe(fc.constant(requirements.payTo)),
    value: maybe(
      fc.oneof(fc.constant(String(requirements.amount)), fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String)),
    ),
    validAfter: maybe(fc.integer({ min: 0, max: now + 1_000 }).map(String)),
    validBefore: maybe(fc.integer({ min: now - 1_000, max: now + 100_000 }).map(String)),
    nonce: maybe(hex(32)),
  });
  const payment = fc.record({
    x402Version: maybe(fc.constantFrom(2, 1, 3)),
    accepted: maybe(
      fc.record({ ...Object.fromEntries(Object.entries(requirements).map(([k, v]) => [k, maybe(fc.constant(v))])) }),
    ),
    payload: maybe(fc.record({ signature: maybe(hex(65)), authorization: maybe(authorization) })),
  });
  return fc.oneof(
    { weight: 8, arbitrary: payment.map((p) => Buffer.from(JSON.stringify(p)).toString("base64")) },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
    {
      weight: 1,
      arbitrary: fc.jsonValue({ maxDepth: 2 }).map((j) => Buffer.from(JSON.stringify(j) ?? "null").toString("base64")),
    },
  );
};
