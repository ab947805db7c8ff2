/**
 * The value types the yield report's schemas share, and the rounding it publishes with. Plain
 * JSON only: the schemas become the OpenAPI document through z.toJSONSchema.
 */
import { z } from "zod";
import { pct } from "../../reserves/solvency-formulas.js";
import { round } from "../../reserves/units.js";

export const DAY = 86_400;

/** A fraction (0.0635 is 6.35 %). */
export const Fraction = z.number();
export const BlockNumber = z.int().nonnegative();

// round and pct return null only for a null input; these keep a known figure typed as known.
export const fixed = (x: number, digits: number): number => round(x, digits)!;
export const pctText = (fraction: number): string => pct(fraction)!;
