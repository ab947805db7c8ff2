/**
 * The scenario's vocabulary: a section per contract family, made of calls (sent by both sides in
 * the same block) and time jumps. Every call states what the reference must do ("ok" or a
 * fragment of its revert), so a scenario that stops exercising what it claims fails loudly.
 */
import type { Role } from "./deploy-pair.js";
import type { FamilyId } from "./reference-bundles.js";
import type { Arg, Who } from "./role-ref.js";

/** Reads a uint from side A (the reference) at the latest block, for arguments sized at run time. */
export type ReadA = (to: Role, sig: string, args?: Arg[], from?: Who) => Promise<bigint>;

export type CallStep = {
  kind: "call";
  from: Who;
  to: Role;
  sig: string;
  args: Arg[] | ((read: ReadA) => Promise<Arg[]>);
  value?: bigint;
  /** "ok", or a fragment of the revert the reference must give. */
  expect: string;
};

export type TimeStep = { kind: "time"; seconds: number };

export type Step = CallStep | TimeStep;

export type Section = { id: string; title: string; family: FamilyId; notes: string[]; steps: Step[] };

export class SectionBuilder {
  readonly section: Section;

  constructor(id: string, title: string, family: FamilyId) {
    this.section = { id, title, family, notes: [], steps: [] };
  }

  ok(from: Who, to: Role, sig: string, args: CallStep["args"] = [], value?: bigint): this {
    this.section.steps.push({ kind: "call", from, to, sig, args, value, expect: "ok" });
    return this;
  }

  reverts(expect: string, from: Who, to: Role, sig: string, args: CallStep["args"] = []): this {
    this.section.steps.push({ kind: "call", from, to, sig, args, expect });
    return this;
  }

  time(seconds: number): this {
    this.section.steps.push({ kind: "time", seconds });
    return this;
  }

  note(text: string): this {
    this.section.notes.push(text);
    return this;
  }
}
