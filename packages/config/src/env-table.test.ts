import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clientEnvSchema, runnerEnvSchema, serviceEnvSchema } from "./env.js";
import { environmentTables, withEnvironmentTables } from "./env-table.js";

describe("docs/configuration.md", () => {
  it("lists exactly the variables the schemas declare, as they describe them (npm run gen:config-doc rewrites it)", () => {
    const doc = readFileSync(new URL("../../../docs/configuration.md", import.meta.url), "utf8");
    expect(withEnvironmentTables(doc), "run npm run gen:config-doc and commit docs/configuration.md").toBe(doc);
  });
  it("every variable has a meaning and says what applies unset", () => {
    for (const schema of [serviceEnvSchema, runnerEnvSchema, clientEnvSchema]) {
      for (const [name, field] of Object.entries(schema.shape)) {
        const meta = field.meta() as { description?: string; unset?: string } | undefined;
        expect(meta?.description, name).toBeTruthy();
        expect(meta?.unset, name).toBeTruthy();
      }
    }
    expect(environmentTables()).toContain("| `KUSD_VENUE_MAX_AGE_SECONDS` | 5 |");
  });
});
