/**
 * The Pothos schema builder shared by every GraphQL module. Raw token amounts are exposed as
 * decimal strings (scalar BigInt) with their decimals beside them, never as lossy floats.
 */
import SchemaBuilder from "@pothos/core";
import type { ReportContext } from "../reports/context.js";

export type GraphQLContext = { reports: ReportContext; signal?: AbortSignal };

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: { BigInt: { Input: bigint; Output: bigint | string } };
}>({});

builder.scalarType("BigInt", {
  description: "An integer of any size, as a decimal string (raw token units unless the field says otherwise).",
  serialize: (v) => v.toString(),
  parseValue: (v) => {
    if (typeof v !== "string" || !/^-?\d+$/.test(v)) throw new TypeError("BigInt must be a decimal string");
    return BigInt(v);
  },
});

builder.queryType({});
builder.subscriptionType({});
