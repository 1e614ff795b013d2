/**
 * One way to write a count for people, wherever the client shows one (the CLI's batch lines, the
 * report pages): digits grouped by commas, as in English.
 */

/**
 * A count as people read it. Not `toLocaleString` for whole numbers: its first call in a process
 * loads ICU's data (about 100 ms, measured), a third of rendering a 5,000-step page.
 *
 * @example
 * count(100000); // "100,000"
 */
export const count = (x: number) => (Number.isInteger(x) ? String(x).replace(/\B(?=(\d{3})+$)/g, ",") : x.toLocaleString("en-US"));
