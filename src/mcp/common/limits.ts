/**
 * How much of what the service sends one answer carries to the model. Every character costs
 * the agent context, and the service's text is not ours to trust with an unbounded share of it.
 */

/** A run's result in run_script and read_run_results, unless `fullOutput`. */
export const RESULT_CHARS = 20_000;
/** A run's result with `fullOutput: true`: whole, within reason. */
export const FULL_RESULT_CHARS = 1_000_000;
/** A run's error text, a description, a note: a paragraph, not a page. */
export const MESSAGE_CHARS = 4_000;
/** A script's code, a host README (the service allows 20,000 characters). */
export const DOCUMENT_CHARS = 100_000;
/** A JSON Schema shown by read_script or a version tool. */
export const SCHEMA_CHARS = 20_000;
/** Items per page of a list tool, unless the agent asks for another size. */
export const DEFAULT_PAGE_SIZE = 20;
