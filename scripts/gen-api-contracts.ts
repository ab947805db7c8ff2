/**
 * `npm run gen:api-contracts`: writes the API's contracts to docs/api/, so a changed field shows
 * in a diff: the free OpenAPI document (what GET /api/openapi.json serves), the paid gateway's
 * descriptor (GET /paid/openapi.json) and the GraphQL schema (SDL, sorted). How they are built,
 * with no running stack: scripts/api-contracts.ts. And docs/api.md's table of error codes, from
 * their catalogue (api/http/error-codes.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { withErrorCodeTable } from "../api/http/error-codes.js";
import { apiContracts } from "./api-contracts.js";

const dir = new URL("../docs/api/", import.meta.url);
mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(await apiContracts())) {
  const file = new URL(name, dir);
  const before = (() => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return null;
    }
  })();
  if (before !== text) writeFileSync(file, text);
  console.log(`docs/api/${name} ${before === text ? "is up to date" : "written"}`);
}

const apiDoc = new URL("../docs/api.md", import.meta.url);
const doc = readFileSync(apiDoc, "utf8");
const withTable = withErrorCodeTable(doc);
if (withTable !== doc) writeFileSync(apiDoc, withTable);
console.log(`docs/api.md's error codes ${withTable === doc ? "are up to date" : "written"}`);
