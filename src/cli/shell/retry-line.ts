/** The one line `--verbose` prints for each retry. */
import type { RetryInfo } from "../../core/wire/transport.js";

export type { RetryInfo };

/**
 * @example
 * retryLine({ attempt: 1, delayMs: 500, reason: "HTTP 503", method: "GET", url: "https://reduck.ai/api/me" });
 * // "HTTP 503: retrying in 0.5 s (attempt 1)"
 */
export function retryLine(info: RetryInfo): string {
  return `${info.reason}: retrying in ${(info.delayMs / 1000).toFixed(1)} s (attempt ${info.attempt})`;
}
