/**
 * Which destinations take a message. An alert goes to every destination whose kinds include it;
 * a retraction or resolution goes exactly where its alert went (the destinations that queued or
 * delivered that alert), and to those that take its kind.
 */
import type { MonitorMessage } from "../deliver.js";

/** The delivery id of the alert a retraction or resolution follows. */
export const alertIdOf = (m: MonitorMessage) => `alert:${m.kind}:${m.id}`;

export function takes(m: MonitorMessage, kinds: string[] | null, hadAlert: boolean): boolean {
  const routed = kinds === null || kinds.includes(m.kind);
  return m.type === "alert" ? routed : hadAlert || routed;
}
