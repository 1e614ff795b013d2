/**
 * The media type a browser gives a file it reads from disk, from the file's extension: the
 * sandbox asks the `mime-types` database (the one Node servers use), not the client's own table,
 * so the two are checked against each other rather than copied.
 *
 * @example
 * ```ts
 * mediaTypeOf("invoice.pdf"); // "application/pdf"
 * mediaTypeOf("notes");       // "application/octet-stream"
 * ```
 */
import mime from "mime-types";

export function mediaTypeOf(fileName: string): string {
  return mime.lookup(fileName) || "application/octet-stream";
}
