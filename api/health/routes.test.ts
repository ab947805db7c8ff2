import { describe, expect, it } from "vitest";
import type { ReportContext } from "../context.js";
import { withApiErrors } from "../http/errors.js";
import { healthRoutes, securityTxtFromEnv } from "./routes.js";

const configured = {
  KUSD_SECURITY_CONTACT: ["mailto:security@kusd.example"],
  KUSD_SECURITY_EXPIRES: new Date(Date.now() + 86_400_000).toISOString(),
};

// security.txt reads nothing of the report context.
const securityTxt = async (env: Parameters<typeof securityTxtFromEnv>[0], host = "http://any-host.test") => {
  const app = withApiErrors(
    healthRoutes({} as ReportContext, {
      statementSignedAt: async () => null,
      securityTxt: securityTxtFromEnv(env),
    }),
  );
  const res = await app.request(`${host}/.well-known/security.txt`);
  return { status: res.status, text: await res.text() };
};

describe("GET /.well-known/security.txt", () => {
  it("names the configured public URL as Canonical, whatever host the request reached", async () => {
    for (const host of ["http://localhost:42069", "http://10.0.0.7:8080"]) {
      const { status, text } = await securityTxt({ ...configured, KUSD_SITE_URL: "https://kusd.example/" }, host);
      expect(status).toBe(200);
      expect(text).toMatch(/^Canonical: https:\/\/kusd\.example\/\.well-known\/security\.txt$/m);
      expect(text).not.toMatch(/localhost|10\.0\.0\.7/);
      expect(text).toMatch(/^Contact: mailto:security@kusd\.example$/m);
    }
  });

  it("has no Canonical line without a configured public URL (never localhost)", async () => {
    const { status, text } = await securityTxt(configured);
    expect(status).toBe(200);
    expect(text).not.toMatch(/^Canonical:/m);
    expect(text).toMatch(/^Expires: /m);
  });

  it("is the JSON 404 without a contact", async () => {
    const { status, text } = await securityTxt({ KUSD_SITE_URL: "https://kusd.example" });
    expect(status).toBe(404);
    expect(JSON.parse(text).error.code).toBe("not_configured");
  });
});
