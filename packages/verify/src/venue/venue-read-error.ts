/**
 * A venue read that did not land: unreachable, a non-2xx answer, or an answer that does not
 * parse. Callers turn it into unknown (null with the reason), never into a guess.
 */
import { KusdError } from "@kusd/core";

export type VenueReadDetails = { url: string; request: string; status?: number; cause?: string };

export class VenueReadError extends KusdError<VenueReadDetails> {
  override name = "VenueReadError";
  readonly code: string = "venue_read_failed";
}
