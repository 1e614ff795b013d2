/**
 * `--browser` and `--device` of `run` and `batch`: where the runs go, said the same way by both.
 */
import { Flags } from "@oclif/core";
import type { RunBrowser } from "../../run/run.js";
import { usageError } from "../shell/errors.js";

/** `--browser cloud|extension|ID`. */
export const browserFlag = Flags.string({
  description:
    "Where to run: extension (your own paired browser, the default), cloud (a hosted browser, signed out: needs a connector for the site; managed is the same), or a paired browser's id (see `reduck devices list`).",
  helpValue: "cloud|extension|ID",
});

/**
 * Where the run goes, from --browser (cloud, managed, extension, or a device id) and --device.
 * "managed" is the service's stored name for the cloud browser: the same thing.
 *
 * @example
 * browserOf("cloud", undefined); // "cloud"
 * browserOf("d7f3a9e2-0000-4000-8000-000000000001", undefined); // { deviceId: "d7f3a9e2-..." }
 */
export function browserOf(flag: string | undefined, device: string | undefined): RunBrowser {
  const named = flag === "managed" ? "cloud" : flag;
  if (device) {
    if (named !== undefined && named !== "extension") {
      throw usageError(`--device names one of your own paired browsers, so it cannot go with --browser ${flag}: drop one of them`);
    }
    return { deviceId: device };
  }
  if (named === undefined || named === "extension") return "extension";
  if (named === "cloud") return "cloud";
  // An id has digits (a UUID on the service); a lone word is a misspelt browser, not a device.
  if (!/^[A-Za-z0-9][\w.:-]*$/.test(named) || !/\d/.test(named))
    throw usageError(`--browser takes cloud, extension or a paired browser's id (see \`reduck devices list\`), not ${JSON.stringify(flag)}`);
  return { deviceId: named };
}
