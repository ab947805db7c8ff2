/** The GraphQL schema: every module registers its types on the shared builder. */
import { builder } from "./builder.js";
import "./violations.js";

export const schema = builder.toSchema();
