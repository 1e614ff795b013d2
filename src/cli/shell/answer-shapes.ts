/**
 * The records the CLI reads from the service, as far as it reads them: each field a command prints
 * or acts on, typed as openapi.json types it, and each id in its documented shape. Fields no
 * command reads are left alone (the service may add or drop them).
 */
import { anything, fields, flag, list, nullable, number, object, optional, text, textOrNumber, type Shape } from "./answer-check.js";

/** `GET /api/me`: whoami, and the caller's own handle for an address without one. */
export const ME: Shape = fields({
  name: text,
  email: text,
  handle: nullable(text),
  projects: list(fields({ handle: text, role: nullable(text) })),
  usage: optional(nullable(fields({ runs: optional(nullable(fields({ used: number, limit: nullable(number) }))) }))),
});

/** What a version is, as a list or a record shows it. */
const VERSION_FIELDS = {
  id: text,
  version_number: number,
  draft: flag,
  side_effects: optional(text),
  created_at: optional(text),
  created_by: optional(nullable(fields({ handle: text }))),
  note: optional(nullable(text)),
};

/** A version in `scripts versions list`, or looked up by its number. */
export const VERSION_SUMMARY: Shape = fields(VERSION_FIELDS);

/** A version read whole: its contract and, when shown, its code (and, made or changed, what changed). */
export const VERSION: Shape = fields({
  ...VERSION_FIELDS,
  language: optional(text),
  logged_in: optional(flag),
  input_schema: optional(nullable(object)),
  output_schema: optional(nullable(object)),
  content: optional(text),
  diff: optional(fields({ code: optional(text), fields: optional(object) })),
});

const AUTHOR = fields({ handle: text, name: optional(text), kind: optional(text), approval: optional(text) });

/** What a script is, as a list or a record shows it. */
const SCRIPT_FIELDS = {
  host: text,
  slug: text,
  name: optional(text),
  description: optional(nullable(text)),
  visibility: optional(text),
  archived_at: optional(nullable(text)),
  author: AUTHOR,
};

/** A script in a list. */
export const SCRIPT_SUMMARY: Shape = fields({
  ...SCRIPT_FIELDS,
  current_version_id: optional(nullable(text)),
  current_version: optional(nullable(fields({ side_effects: optional(text) }))),
});

/** A script read whole, with its current version. */
export const SCRIPT: Shape = fields({
  id: text,
  ...SCRIPT_FIELDS,
  version_count: optional(number),
  human_required: optional(nullable(flag)),
  current_version_id: optional(nullable(text)),
  current_version: nullable(VERSION),
});

/** A script as `reduck run` and `batch` read it: its current version's contract, if any. */
export const RUNNABLE_SCRIPT: Shape = fields({
  current_version: nullable(fields({ input_schema: optional(nullable(object)), output_schema: optional(nullable(object)) })),
});

/** A script as `runs list --script` reads it: its id, for the query. */
export const SCRIPT_ID: Shape = fields({ id: text });

/** The caller's own handle, from `GET /api/me`. */
export const OWN_HANDLE: Shape = fields({ handle: nullable(text) });

/** A run's record (`runs get`, `runs list`). */
export const RUN: Shape = fields({
  id: text,
  name: optional(text),
  status: text,
  source: optional(text),
  started_at: text,
  finished_at: nullable(text),
  args: anything,
  browser: fields({ type: text, region: optional(text) }),
  result: nullable(object),
  script: nullable(fields({ handle: text, host: text, slug: text, version_id: text, version_number: textOrNumber })),
});

/** A paired browser. */
export const DEVICE: Shape = fields({
  id: text,
  name: nullable(text),
  browser: nullable(text),
  os: nullable(text),
  file_access: nullable(flag),
  reachable: flag,
});

/** A script just made: its address and the ids it was given. */
export const CREATED_SCRIPT: Shape = fields({
  id: text,
  host: text,
  slug: text,
  current_version_id: nullable(text),
  created_version_id: text,
});

/** Where a script may be moved. */
export const TRANSFER_TARGETS: Shape = fields({
  targets: list(fields({ handle: text, kind: text, name: text, can_transfer_out: flag })),
});

/** The script's address after a transfer. */
export const TRANSFERRED: Shape = fields({ handle: text, host: text, slug: text });
