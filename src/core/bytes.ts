/**
 * One rule for sizes shown to people, everywhere in the client: binary units, labelled as such
 * (KiB, MiB, GiB), since the service's limits are 50 MiB and 100 KiB counted that way.
 */

const UNITS: Array<[number, string]> = [
  [1024 ** 3, "GiB"],
  [1024 ** 2, "MiB"],
  [1024, "KiB"],
];

/**
 * A size in binary units, to one decimal place (none when it is whole).
 *
 * @example
 * formatBytes(52_428_800); // "50 MiB"
 * formatBytes(1_536); // "1.5 KiB"
 * formatBytes(999); // "999 bytes"
 */
export function formatBytes(n: number): string {
  for (const [size, unit] of UNITS) {
    if (n >= size) return `${(n / size).toFixed(1).replace(/\.0$/, "")} ${unit}`;
  }
  return `${n} bytes`;
}
