// Hosted apps (app images, releases, installed apps). Placeholder until the sandbox serves them:
// every operation is routed (so the pipeline stays in step with openapi.json) and refuses with 403.
import { ApiError } from "../errors.js";
import type { Implementations, Implementation } from "./types.js";

type AppOperation =
  | "listAllApps"
  | "listApps"
  | "createApp"
  | "getApp"
  | "updateApp"
  | "uninstallApp"
  | "listAppUpdates"
  | "getAppSecrets"
  | "updateAppSecrets"
  | "getAppTools"
  | "listAllAppImages"
  | "listAppImages"
  | "createAppImage"
  | "getAppImage"
  | "updateAppImage"
  | "archiveAppImage"
  | "restoreAppImage"
  | "listAppImageReleases"
  | "startAppImageRelease"
  | "getAppImageRelease"
  | "publishAppImageRelease"
  | "rollbackAppImage";

const notYet: Implementation<AppOperation> = () => {
  throw new ApiError(403, "This sandbox does not serve hosted apps yet");
};

export const appHandlers = Object.fromEntries(
  (
    [
      "listAllApps",
      "listApps",
      "createApp",
      "getApp",
      "updateApp",
      "uninstallApp",
      "listAppUpdates",
      "getAppSecrets",
      "updateAppSecrets",
      "getAppTools",
      "listAllAppImages",
      "listAppImages",
      "createAppImage",
      "getAppImage",
      "updateAppImage",
      "archiveAppImage",
      "restoreAppImage",
      "listAppImageReleases",
      "startAppImageRelease",
      "getAppImageRelease",
      "publishAppImageRelease",
      "rollbackAppImage",
    ] as const
  ).map((id) => [id, notYet]),
) as unknown as Pick<Implementations, AppOperation>;
