/**
 * `reduck-client/report`: pages that show what runs did, as self-contained HTML strings. A run's
 * page (`renderTraceHtml`) and a batch's report (`renderBatchReportHtml`), the same pages
 * `reduck runs trace --html` and `reduck batch report` write, for your own dashboards or CI
 * artifacts. Each page is one file that makes no request when opened and runs no script.
 *
 * A subpath of its own, so the main entry does not carry it.
 */
export { renderTraceHtml, type TracePageInput } from "./trace-page.js";
export { renderBatchReportHtml, type BatchReportOptions } from "./batch-page.js";
export { BatchTally, type RowState, type TalliedRow, type ErrorGroup, type TalliedHeader, type TalliedFile } from "./batch-tally.js";
export { batchStatus, type BatchStatus } from "./batch-status.js";
export { normaliseTrace, normaliseRun, type TraceView, type TraceStepView, type TraceScreenshotView, type RunView } from "./trace-data.js";
export { fetchScreenshot, imageTypeOf, MAX_SCREENSHOT_BYTES, type FetchScreenshotOptions, type ScreenshotImage, type ImageType } from "./screenshots.js";
