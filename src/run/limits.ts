/**
 * The service's size limits. "50 MB" and "100 KB" are read in binary units, as the usual
 * Node body limits count them (`100kb` = 102,400 bytes).
 */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const MAX_JSON_BODY_BYTES = 100 * 1024;

/** A size in binary units, labelled as such (MiB, KiB), since that is what the limits count. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1).replace(/\.0$/, "")} KiB`;
  return `${n} bytes`;
}
