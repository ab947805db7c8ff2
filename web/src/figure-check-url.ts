/**
 * What the figure check was asked for, from the page's address: the reader's RPC (`?rpc=`), storage
 * proofs (`proofs=1`), the reader's venue (`?venue=`) and the reader's Ethereum RPC (`?l1rpc=`: the
 * statement's block proven from the output roots Base posts on Ethereum, which implies proofs, as
 * `kusd-verify --l1-rpc` does). The page's content security policy admits those origins only when
 * the address names them (api/http/page.ts).
 */

export type FigureCheckRequest = { rpc: string | null; proofs: boolean; venue: string | null; l1rpc: string | null };

const httpUrl = (v: string | null) => (v && /^https?:\/\//.test(v) ? v : null);

export function figureCheckFrom(search: string): FigureCheckRequest {
  const q = new URLSearchParams(search);
  const l1rpc = httpUrl(q.get("l1rpc"));
  return {
    rpc: httpUrl(q.get("rpc")),
    proofs: q.get("proofs") === "1" || l1rpc !== null,
    venue: httpUrl(q.get("venue")),
    l1rpc,
  };
}

/** A check is asked for and no venue is named (an empty form field names none; a named one that is not a URL does). */
export function venueUnnamed(search: string): boolean {
  const q = new URLSearchParams(search);
  return figureCheckFrom(search).rpc !== null && (q.get("venue") ?? "") === "";
}

/**
 * The address to open for the check with the network document's venue when the reader named none:
 * the venue must be in the address for the policy to admit it. Null when there is nothing to add.
 */
export function addressWithVenue(href: string, documentVenue: string | null): string | null {
  const url = new URL(href);
  if (!venueUnnamed(url.search) || httpUrl(documentVenue) === null) return null;
  url.searchParams.set("venue", documentVenue!);
  return url.toString();
}

/** The venue URL a network document names (kusd.venue.url), or null. */
export function documentVenueOf(networkText: string): string | null {
  const url = (JSON.parse(networkText) as { kusd?: { venue?: { url?: unknown } } }).kusd?.venue?.url;
  return typeof url === "string" ? url : null;
}
