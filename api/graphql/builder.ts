/**
 * The Pothos schema builder shared by every GraphQL module. Raw token amounts are BigInt
 * scalars serialised as decimal strings (their decimals are documented on each field or given
 * beside them), never lossy floats; times are ISO 8601 strings.
 */
import SchemaBuilder from "@pothos/core";
import { createGraphQLError } from "graphql-yoga";
import type { ReportContext } from "../context.js";
import type { RegistryService } from "../registry/registry-service.js";
import type { StatementService } from "../statements/statement-service.js";
import type { Loaders } from "./loaders.js";

export type GraphQLContext = {
  reports: ReportContext;
  loaders: Loaders;
  /** SQL statements this request has issued (reported in `extensions.sqlQueries`). */
  sqlQueries: () => number;
  signal?: AbortSignal;
  /** Present where the instance serves them (the Ponder API; a standalone reader with a store). */
  services?: { statements?: StatementService; registry?: RegistryService };
};

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    BigInt: { Input: bigint; Output: bigint | string | number };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({ defaultFieldNullability: false });

builder.scalarType("BigInt", {
  description:
    "An integer of any size as a decimal string: raw token units (see the field's decimals), block numbers, unix seconds.",
  serialize: (v) => v.toString(),
  parseValue: (v) => {
    // A GraphQLError (yoga's, see limits.ts): the caller's mistake is named as BAD_USER_INPUT, never masked as an internal error.
    if ((typeof v !== "string" || !/^-?\d{1,78}$/.test(v)) && !(typeof v === "number" && Number.isSafeInteger(v))) {
      throw createGraphQLError("BigInt must be a decimal string of at most 78 digits", {
        extensions: { code: "BAD_USER_INPUT" },
      });
    }
    return BigInt(v as string | number);
  },
});

builder.scalarType("JSON", {
  description: "A JSON document (a whole report, exactly as the REST endpoint serves it).",
  serialize: (v) => v,
  parseValue: (v) => v,
});

builder.queryType({});
builder.subscriptionType({});
