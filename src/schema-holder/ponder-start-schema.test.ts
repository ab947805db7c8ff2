import { describe, expect, it } from "vitest";
import { ponderStartSchema } from "./ponder-start-schema.js";

const bin = "/app/node_modules/ponder/dist/esm/bin/ponder.js";

describe("ponderStartSchema", () => {
  it("reads --schema in both forms, else DATABASE_SCHEMA", () => {
    expect(ponderStartSchema(["node", bin, "start", "--schema", "kusd_a"], {})).toBe("kusd_a");
    expect(ponderStartSchema(["node", bin, "start", "--schema=kusd_b"], {})).toBe("kusd_b");
    expect(ponderStartSchema(["node", bin, "start"], { DATABASE_SCHEMA: "kusd_c" })).toBe("kusd_c");
  });
  it("is null for any command but start, and without a schema", () => {
    expect(ponderStartSchema(["node", bin, "serve", "--schema", "kusd_a"], {})).toBeNull();
    expect(ponderStartSchema(["node", bin, "codegen"], { DATABASE_SCHEMA: "x" })).toBeNull();
    expect(ponderStartSchema(["node", bin, "start"], {})).toBeNull();
    // A flag value named "start" is not the command.
    expect(ponderStartSchema(["node", bin, "serve", "--schema", "start"], {})).toBeNull();
  });
});
