/**
 * How patient a call is: its timeout, how often it is retried, and who is told of each retry.
 * The client holds the defaults; any call (generated or hand-written) may give its own, which
 * win for every request that call makes.
 */

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** "HTTP 429", "ECONNREFUSED", "timeout"... */
  reason: string;
  method: string;
  url: string;
}

export interface CallSettings {
  /** Retries of what a retry can help. */
  maxRetries: number;
  /** Per attempt, from sending to the last byte of the answer; 0 disables the timeout. */
  timeoutMs: number;
  /** Told before each retry. */
  onRetry?: (info: RetryInfo) => void;
}

/**
 * A call's own settings, each in place of the client's.
 *
 * @example
 * await getMe({ client, timeoutMs: 5_000, maxRetries: 0 });
 */
export interface CallSettingsOptions {
  /** This call's timeout per attempt, in ms (0: none), in place of the client's `timeoutMs`. */
  timeoutMs?: number;
  /** This call's retries, in place of the client's `maxRetries` (0: none). */
  maxRetries?: number;
  /** Told before each retry of this call, in place of the client's `onRetry`. */
  onRetry?: (info: RetryInfo) => void;
}

/** `base` with the values `overrides` gives (an undefined one keeps the base's). */
export function withSettings(base: CallSettings, overrides: CallSettingsOptions | undefined): CallSettings {
  if (!overrides) return base;
  return {
    maxRetries: overrides.maxRetries ?? base.maxRetries,
    timeoutMs: overrides.timeoutMs ?? base.timeoutMs,
    onRetry: overrides.onRetry ?? base.onRetry,
  };
}

/** Just the settings of a call's options, so that nothing else of them rides along. */
export function settingsOf(options: CallSettingsOptions): CallSettingsOptions {
  return { timeoutMs: options.timeoutMs, maxRetries: options.maxRetries, onRetry: options.onRetry };
}

/** What is wrong with a call's settings: in words that say how to fix it, and the option's name. */
export interface SettingsProblem {
  message: string;
  parameter: keyof CallSettingsOptions;
}

/** What is wrong with a call's settings; undefined when nothing is. */
export function settingsProblem(options: CallSettingsOptions, name: string): SettingsProblem | undefined {
  const { timeoutMs, maxRetries, onRetry } = options;
  if (timeoutMs !== undefined && (typeof timeoutMs !== "number" || !(timeoutMs >= 0)))
    return {
      message: `${name}: timeoutMs must be 0 (no timeout) or a positive number of milliseconds (got ${JSON.stringify(timeoutMs)})`,
      parameter: "timeoutMs",
    };
  if (maxRetries !== undefined && (typeof maxRetries !== "number" || !Number.isInteger(maxRetries) || maxRetries < 0))
    return { message: `${name}: maxRetries must be a whole number, 0 or more (got ${JSON.stringify(maxRetries)})`, parameter: "maxRetries" };
  if (onRetry !== undefined && typeof onRetry !== "function") return { message: `${name}: onRetry must be a function`, parameter: "onRetry" };
  return undefined;
}
