import { Hono } from "hono";

// Ponder requires an API entry; the bare app serves only Ponder's own routes.
export default new Hono();
