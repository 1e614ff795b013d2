/**
 * What every bench shares: the environment a measured process runs in, and the median that
 * every figure is.
 */

/**
 * The environment of a measured process: ours, without the CA bundle every Node start would
 * parse and without NODE_OPTIONS (a test runner's hooks), then `extra` (which may set either again).
 *
 * @example
 * execFileSync(node, [cli, "--version"], { env: cleanEnv({ REDUCK_CONFIG_DIR: work }) });
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  return { ...env, ...extra };
}

/**
 * The middle value (the mean of the two middle ones for an even count).
 *
 * @example
 * median([3, 1, 2, 10]); // 2.5
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
