// How records name their owner (a user or a project) as a map key, and compare two owners.
import type { OwnerRef } from "./records.js";

export function ownerKey(owner: OwnerRef): string {
  return `${owner.kind}:${owner.id}`;
}

export function sameOwner(a: OwnerRef, b: OwnerRef): boolean {
  return a.kind === b.kind && a.id === b.id;
}
