// The little service the start-up and loading tests talk to: a catalogue page, two contracts with a
// file input, and a run that answers at once. Both measure the CLI, so the answers stay trivial.
import { type FaultServer, startFaultServer } from "../faults/fault-server.js";

/** The id of the run it answers with (a UUID, as the CLI checks). */
export const FAKE_RUN_ID = "0d4e8619-5b1c-4c1e-9d55-0000000000a1";

/** Starts the fake service on a free loopback port. */
export function startFakeService(): Promise<FaultServer> {
  return startFaultServer({
    "GET /api/scripts/reduck": { json: { data: [], hasNextPage: false, totalCount: 0 } },
    "GET /api/scripts/reduck/a.com/s": {
      json: {
        handle: "reduck",
        host: "a.com",
        slug: "s",
        current_version: {
          id: "v1",
          input_schema: { type: "object", properties: { document: { type: "string", format: "file" }, n: { type: "integer", minimum: 1 } } },
        },
      },
    },
    // Text, numbers and true/false alone: applyContract's checks are all it asks, and ajv is not loaded.
    "GET /api/scripts/reduck/a.com/plain": {
      json: {
        handle: "reduck",
        host: "a.com",
        slug: "plain",
        current_version: {
          id: "v1",
          input_schema: {
            type: "object",
            properties: { document: { type: "string", format: "file" }, n: { type: "integer", description: "How many" }, note: { type: "string" } },
            required: ["n"],
          },
        },
      },
    },
    "POST /run": { json: { result: { ok: true }, runId: FAKE_RUN_ID } },
  });
}
