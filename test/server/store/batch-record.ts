// What the store keeps of a batch, apart from the batch handlers so the store can name it without
// importing the handlers (and through them the store itself).
import type { components } from "../contract/openapi-types.js";

export type RunEnvelope = components["schemas"]["RunEnvelope"];
export type RunBatch = components["schemas"]["RunBatch"];

export interface BatchRecord {
  id: string;
  userId: string;
  /** The batch as it stands now. */
  view(): RunBatch;
}
