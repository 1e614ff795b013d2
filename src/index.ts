/**
 * reduck-client: a typed client for the Reduck API (catalogue, account, runs and hosted apps).
 *
 * Every operation function takes `{ client, path?, query?, body?, signal? }` and resolves to
 * `{ data, error, response }`; list functions add `hasNextPage` and `totalCount`. None throws.
 */
export { createReduckClient, ReduckClient, ClientOptionError, DEFAULT_BASE_URL, DEFAULT_RUN_BASE_URL } from "./core/client.js";
export type { ReduckClientOptions, ReduckClientSettings, ReduckCredential, OAuthTokenProvider } from "./core/client.js";
export type { RetryInfo } from "./core/wire/transport.js";
export type { CallSettingsOptions } from "./core/wire/call-settings.js";
export { proxyFromEnv, type ProxySetting } from "./core/wire/proxy.js";
// Every error type, by kind (core/error-types.ts holds them and nothing else).
export type * from "./core/error-types.js";
export type { OperationOptions, OperationResult, ListResult, CallOptions } from "./core/types.js";
export { paginate, paginateToArray, listAll, ReduckPageError, type ListFunction } from "./paginate.js";
export * from "./generated/operations.js";
/**
 * The generated layer: openapi-typescript's types of openapi.json (`paths`, `components`,
 * `operations`, `webhooks`, `$defs`), e.g. `createClient<ReduckApi.paths>()` with openapi-fetch.
 * The named types below (`Run`, `Script`...) and each function's own types are the usual way in.
 */
export type * as ReduckApi from "./generated/schema.js";
export { PACKAGE_VERSION } from "./version.js";
export { runScript, RUN_REGIONS, MAX_SCRIPTS_PER_RUN, MAX_WAIT_FOR_SECONDS } from "./run/run.js";
export { waitForRun, type WaitForRunOptions, type WaitOptions } from "./run/wait.js";
export { findRun, type FindRunOptions, type FindRunResult } from "./run/find-run.js";
export type {
  ReduckScripts,
  ReduckScriptsConfig,
  RegisteredScript,
  ScriptAddressFor,
  ScriptArgs,
  ScriptFiles,
  ScriptResultOf,
  StrictScripts,
  TypedScriptToRun,
  StepToRun,
} from "./run/typed.js";
export { scriptAt, type AddressParts } from "./run/script-at.js";
export { isPendingRun, isRunFailure } from "./run/outcomes.js";
export { scopesFor } from "./scopes.js";
export type {
  ScriptToRun,
  SingleRunOptions,
  BatchRunOptions,
  RunResult,
  RunOptions,
  RunAnswer,
  RunError,
  RunResponse,
  BatchRunResponse,
  RunStepOutcome,
  RunBrowser,
  RunRegion,
  UploadProgress,
  PendingRun,
  RunStatusUpdate,
  RunStatus,
} from "./run/run.js";
export type { FileSource, NamedFile, InlineFile, PathFile, OpenFile } from "./run/files.js";
export { relativePathProblem, isPlainRelativePath, RELATIVE_PATH_MESSAGE, SERVICE_FOLDER } from "./run/relative-path.js";
export { MAX_FILE_BYTES, MAX_JSON_BODY_BYTES } from "./run/limits.js";

import type { components, operations, paths } from "./generated/schema.js";
/** @deprecated The generated layer is `ReduckApi`: `ReduckApi.paths`. */
type DeprecatedPaths = paths;
/** @deprecated The generated layer is `ReduckApi`: `ReduckApi.components`. */
type DeprecatedComponents = components;
/** @deprecated The generated layer is `ReduckApi`: `ReduckApi.operations`. */
type DeprecatedOperations = operations;
export type { DeprecatedPaths as paths, DeprecatedComponents as components, DeprecatedOperations as operations };
type Schemas = components["schemas"];
export type Script = Schemas["ScriptWithVersion"];
export type ScriptSummary = Schemas["ScriptSummary"];
export type ScriptVersion = Schemas["ScriptVersion"];
export type ScriptVersionSummary = Schemas["ScriptVersionSummary"];
export type Run = Schemas["Run"];
export type Device = Schemas["Device"];
export type Connector = Schemas["Connector"];
export type HostReadme = Schemas["HostReadme"];
export type TransferTarget = Schemas["TransferTarget"];
export type App = Schemas["App"];
export type AppSummary = Schemas["AppSummary"];
export type AppSecret = Schemas["AppSecret"];
export type AppUpdate = Schemas["AppUpdate"];
export type AppImage = Schemas["AppImage"];
export type AppImageSummary = Schemas["AppImageSummary"];
export type AppImageRelease = Schemas["AppImageRelease"];
export type AppImageReleaseSummary = Schemas["AppImageReleaseSummary"];
export type AppImageManifest = Schemas["AppImageManifest"];
export type AppImageToolDeclaration = Schemas["AppImageToolDeclaration"];
export { runMany } from "./batch/run-many.js";
export type { RunManyOptions, RunManyRun, RunManySummary, BatchCounts, RowFor } from "./batch/run-many.js";
export type { Shard } from "./batch/shard.js";
export { readRows, RowsError } from "./batch/rows.js";
export type { RowValues } from "./batch/rows.js";
export type { RowOutcome, OutcomeStatus } from "./batch/journal.js";
export { readBatchScript } from "./batch/prepare.js";
export type { BatchScript, ContractResult } from "./batch/prepare.js";
export type { JsonSchema } from "./core/json.js";
export { deployApp } from "./apps/deploy.js";
export { DEPLOY_STATE_FILE } from "./apps/deploy-options.js";
export { readFlockFile, writeFlockFile } from "./apps/flock-file.js";
export type { DeployAppOptions, DeployAppResult, DeployedApp, DeployError, DeployProgress } from "./apps/deploy-options.js";
export type { AppImageAddress, FlockFile } from "./apps/flock-file.js";
export { readAppFolder, appFileNameProblem, AppFolderError, APP_RELEASE_LIMITS, FLOCK_FILE } from "./apps/folder.js";
export type { AppFolder, AppFile } from "./apps/folder.js";
export { readScriptTree, writeScriptFolder } from "./script-folders/tree.js";
export type { LocalScript, ScriptTree, ScriptFolderFiles } from "./script-folders/tree.js";
export { readLock, writeLock, parseLock, lockText } from "./script-folders/lock.js";
export type { ScriptLock, LockEntry } from "./script-folders/lock.js";
export { LOCK_FILE, CONTRACT_FILE, CODE_FILES, CONTRACT_KEYS, ScriptFolderError, contractText, parseContract, contentHash } from "./script-folders/layout.js";
export type { ScriptContractFile, ScriptFolderAddress, ScriptLanguage, ContractKey } from "./script-folders/layout.js";
export { localChanges, changedFields } from "./script-folders/changes.js";
export type { LocalChange, LocalState } from "./script-folders/changes.js";
export { unifiedDiff } from "./script-folders/line-diff.js";
