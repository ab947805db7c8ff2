import { describe, expect, it } from "vitest";
import { addressWithVenue, documentVenueOf, figureCheckFrom, venueUnnamed } from "./figure-check-url.js";

describe("figureCheckFrom", () => {
  it("reads the RPC, the venue and proofs; only http(s) URLs count", () => {
    expect(figureCheckFrom("?rpc=http%3A%2F%2F127.0.0.1%3A8545&venue=https%3A%2F%2Fv.example%2Finfo&proofs=1")).toEqual(
      {
        rpc: "http://127.0.0.1:8545",
        venue: "https://v.example/info",
        proofs: true,
        l1rpc: null,
      },
    );
    expect(figureCheckFrom("?rpc=javascript:alert(1)&venue=ftp://x&l1rpc=file:///etc")).toEqual({
      rpc: null,
      venue: null,
      proofs: false,
      l1rpc: null,
    });
  });
  it("reads the Ethereum RPC, which implies proofs (as kusd-verify --l1-rpc); an empty field names none", () => {
    expect(figureCheckFrom("?rpc=http%3A%2F%2F127.0.0.1%3A8545&l1rpc=https%3A%2F%2Feth.example")).toEqual({
      rpc: "http://127.0.0.1:8545",
      venue: null,
      proofs: true,
      l1rpc: "https://eth.example",
    });
    expect(figureCheckFrom("?rpc=http%3A%2F%2F127.0.0.1%3A8545&l1rpc=")).toMatchObject({ proofs: false, l1rpc: null });
  });
});

describe("venueUnnamed", () => {
  it("a check asked with no venue, or an empty field", () => {
    expect(venueUnnamed("?rpc=http%3A%2F%2F127.0.0.1%3A8545")).toBe(true);
    expect(venueUnnamed("?rpc=http%3A%2F%2F127.0.0.1%3A8545&venue=")).toBe(true);
    expect(venueUnnamed("?rpc=http%3A%2F%2F127.0.0.1%3A8545&venue=nonsense")).toBe(false);
    expect(venueUnnamed("?venue=")).toBe(false);
  });
});

describe("addressWithVenue", () => {
  const page = "http://127.0.0.1:42069/?rpc=http%3A%2F%2F127.0.0.1%3A8545";
  it("adds the network document's venue when the reader named none", () => {
    const next = addressWithVenue(page, "http://127.0.0.1:8547/info");
    expect(new URL(next!).searchParams.get("venue")).toBe("http://127.0.0.1:8547/info");
    expect(new URL(next!).searchParams.get("rpc")).toBe("http://127.0.0.1:8545");
    // an empty field from the form is no venue named
    expect(addressWithVenue(`${page}&venue=`, "http://127.0.0.1:8547/info")).not.toBeNull();
  });
  it("adds nothing when a venue is named (even a bad one), no check is asked, or the document names none", () => {
    expect(addressWithVenue(`${page}&venue=https%3A%2F%2Fv.example`, "http://127.0.0.1:8547/info")).toBeNull();
    expect(addressWithVenue(`${page}&venue=ftp%3A%2F%2Fx`, "http://127.0.0.1:8547/info")).toBeNull();
    expect(addressWithVenue("http://127.0.0.1:42069/", "http://127.0.0.1:8547/info")).toBeNull();
    expect(addressWithVenue(page, null)).toBeNull();
  });
});

describe("documentVenueOf", () => {
  it("is kusd.venue.url, or null", () => {
    expect(documentVenueOf(JSON.stringify({ kusd: { venue: { url: "https://api.hyperliquid.xyz/info" } } }))).toBe(
      "https://api.hyperliquid.xyz/info",
    );
    expect(documentVenueOf(JSON.stringify({ kusd: { venue: { url: null } } }))).toBeNull();
  });
});
