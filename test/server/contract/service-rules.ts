/**
 * The service's rules as the sandbox enforces them, written from the service's description (its
 * limits, and its rules for files and relativePath names), not taken from the client: the sandbox is a witness, so a client whose
 * limits drift is caught by the agreement tests instead of moving along with its witness.
 *
 * @example
 * ```ts
 * import { MAX_FILE_BYTES, relativePathProblem } from "./service-rules.js";
 * MAX_FILE_BYTES;                       // 52428800
 * relativePathProblem("../secrets.txt"); // "must be a plain name inside the reduck folder (it leaves the folder with ..)"
 * ```
 */

/** "Maximum file size 50 MB" per multipart part, read in binary units: 52,428,800 bytes. */
export const MAX_FILE_BYTES = 52_428_800;
/** "Body limit 100 KB" for a JSON run request, binary units: 102,400 bytes (exactly that is accepted). */
export const MAX_JSON_BODY_BYTES = 102_400;
/** The service folder on the user's desktop (`~/Desktop/reduck`) that `relativePath` names are inside. */
export const SERVICE_FOLDER = "reduck";
/** The service's words when a `relativePath` is refused; the reason follows in brackets. */
export const RELATIVE_PATH_REFUSED = `must be a plain name inside the ${SERVICE_FOLDER} folder`;

/** A size as the sandbox's messages print it: binary units (MiB, KiB), as the limits count. */
export function formatBytes(bytes: number): string {
  const units: Array<[number, string]> = [
    [2 ** 20, "MiB"],
    [2 ** 10, "KiB"],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/**
 * Why the paired browser would refuse to read `name` from the service folder, or undefined.
 * The description: names are relative to the folder, sub-folders allowed, an absolute path or
 * `..` is rejected. The browser reads the file through a `file:` URL on any desktop system, so
 * names that such a URL or Windows would read as something else are refused too.
 */
export function relativePathProblem(name: unknown): string | undefined {
  const why = whyNotPlain(name);
  return why === undefined ? undefined : `${RELATIVE_PATH_REFUSED} (${why})`;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9]) *(\..*)?$/i;

function whyNotPlain(name: unknown): string | undefined {
  if (typeof name !== "string" || !name.trim()) return "the name is empty";
  if (name.includes("\0")) return "it contains a NUL byte";
  if (CONTROL.test(name)) return "it contains a control character";
  if (name.includes("\\")) return "it contains a backslash; use / between folders";
  if (name[0] === "/") return "it is an absolute path";
  if (/^[a-z]:/i.test(name)) return "it starts with a drive letter";
  if (name[0] === "~") return "it starts with ~; name the file relative to the folder";
  if (name.includes("%")) return "it contains %, which a file URL reads as an escape (%2e%2e is ..)";
  if (/[?#]/.test(name)) return "it contains ? or #, which end the path of a file URL";
  if (name.includes(":")) return "it contains :, which Windows reads as a drive or a stream name";
  const parts = name.split("/");
  if (parts.includes("..")) return "it leaves the folder with ..";
  if (parts.includes("")) return "it has an empty path segment";
  if (parts.includes(".")) return "it has a . segment";
  for (const part of parts) {
    if (DEVICE.test(part)) return `${JSON.stringify(part)} is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9)`;
  }
  for (const part of parts) {
    if (/[. ]$/.test(part)) return `${JSON.stringify(part)} ends in a dot or a space, which Windows drops (it would name another file)`;
  }
  return undefined;
}
