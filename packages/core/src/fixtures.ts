/** Hand-computed inputs and their expected reports, for tests beside and outside the package. */
export * from "./reserves/por/fixture.js";
export * from "./yield/apy/apy-report.fixture.js";
export * from "./yield/hedge-ledger/hedge-ledger.fixture.js";
