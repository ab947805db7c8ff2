import { describe, expect, it } from "vitest";
import { buildSecurityTxt, securityTxtExpired } from "./security-txt.js";

describe("security.txt (RFC 9116)", () => {
  it("lists every Contact, Expires in ISO 8601, the policy, languages and its canonical URL", () => {
    const text = buildSecurityTxt({
      contacts: ["mailto:security@example.org", "https://example.org/report"],
      expires: "2027-05-01T00:00:00Z",
      policy: "https://example.org/policy",
      canonical: "https://example.org/.well-known/security.txt",
    });
    expect(text).toBe(
      "Contact: mailto:security@example.org\nContact: https://example.org/report\nExpires: 2027-05-01T00:00:00.000Z\nPolicy: https://example.org/policy\nPreferred-Languages: en\nCanonical: https://example.org/.well-known/security.txt\n",
    );
  });

  it("refuses a contact that is not a URI and an Expires that is not a date", () => {
    expect(() =>
      buildSecurityTxt({
        contacts: ["security@example.org"],
        expires: "2027-05-01T00:00:00Z",
        canonical: "https://x/.well-known/security.txt",
      }),
    ).toThrow(/Contact/);
    expect(() =>
      buildSecurityTxt({ contacts: ["mailto:a@b"], expires: "soon", canonical: "https://x/.well-known/security.txt" }),
    ).toThrow();
  });

  it("leaves Canonical out when no public URL is known", () => {
    expect(buildSecurityTxt({ contacts: ["mailto:a@b.example"], expires: "2027-05-01T00:00:00Z" })).toBe(
      "Contact: mailto:a@b.example\nExpires: 2027-05-01T00:00:00.000Z\nPreferred-Languages: en\n",
    );
  });

  it("knows when it has expired", () => {
    expect(securityTxtExpired("2020-01-01T00:00:00Z")).toBe(true);
    expect(securityTxtExpired("2999-01-01T00:00:00Z")).toBe(false);
  });
});
