/**
 * The report's own JSON value types, beside the shared ones of core/schema-primitives.ts
 * (address, hash, wei string, verifyVia). Plain JSON only: the schemas become the OpenAPI
 * document through z.toJSONSchema.
 */
import { z } from "zod";

/** A USD or token figure in whole units; null when a read it depends on failed. */
export const Amount = z.number().nullable();
export const PctString = z.string().regex(/^-?\d+\.\d{2}%$/).describe('two decimals and a percent sign ("108.04%")');
export const IsoTime = z.iso.datetime();
export const IsoDate = z.iso.date();
export const CountedInSolvency = z.literal(false).describe("never added to collateralUSD or to any ratio");
