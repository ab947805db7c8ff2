/**
 * The report's own JSON value types, beside the shared ones of packages/core/src/schema-primitives.ts
 * (address, hash, wei string, times, percent text, verifyVia). Plain JSON only: the schemas become the OpenAPI
 * document through z.toJSONSchema.
 */
import { z } from "zod";

/** A USD or token figure in whole units; null when a read it depends on failed. */
export const Amount = z.number().nullable();
export const CountedInSolvency = z.literal(false).describe("never added to collateralUSD or to any ratio");
