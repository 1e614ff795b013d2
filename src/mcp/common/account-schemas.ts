/**
 * Schemas several tools take or give, about the account around the scripts: no input (whoami,
 * list_devices) and a host's README (read, set and delete). A schema only one tool uses is in
 * that tool's file.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "./schema-parts.js";

export function accountSchemas(z: typeof Zod, { closed, open, next }: SchemaParts) {
  const noInput = closed({});

  const hostTarget = () => ({
    host: z.string().describe('The site, e.g. "example.com".'),
    handle: z.string().optional().describe('Owner: "reduck", "@username" or a project; omit for your own.'),
  });

  const readHostReadmeInput = closed(hostTarget());

  const readmeOutput = open({
    handle: z.string(),
    host: z.string(),
    content: z.string().nullable().describe("null when there is none."),
    updatedAt: z.string().nullable().optional(),
    next: next(),
  });

  return { noInput, hostTarget, readHostReadmeInput, readmeOutput };
}
