/** The batch runner, loaded when `batch` runs: other commands' start-up never pays for it (it hashes rows with node:crypto). */
export const batchModules = () =>
  Promise.all([
    import("../../batch/journal.js"),
    import("../../batch/prepare.js"),
    import("../../batch/resume.js"),
    import("../../batch/rows.js"),
    import("../../batch/run-many.js"),
    import("../../batch/shard.js"),
  ]).then(([journal, prepare, resume, rows, runMany, shard]) => ({ ...journal, ...prepare, ...resume, ...rows, ...runMany, ...shard }));
