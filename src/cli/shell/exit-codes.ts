/** The CLI's exit codes, documented in README.md and in `reduck --help`. */
export const ExitCode = {
  OK: 0,
  /** The API or the run failed. */
  FAILED: 1,
  /** Bad usage or input: found before anything was sent, or a script address, owner handle or app image the service does not know (a typo to fix, like a malformed one). */
  USAGE: 2,
  /** Not authenticated, or the credential was refused. */
  AUTH: 4,
  /** `scripts status --exit-code`: scripts changed here, waiting to be pushed. */
  CHANGES: 10,
  /** Scripts changed both here and on the service: `scripts status --exit-code`, or a pull or push that refused them. */
  CONFLICT: 11,
  /** Interrupted (Ctrl-C). */
  INTERRUPTED: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODES_HELP = `EXIT CODES
  0    success
  1    the API or the run failed
  2    bad usage or input: found before anything was sent, or a script, owner or app image the service does not know
  4    not authenticated, or the credential was refused
  10   scripts status --exit-code: changes pending
  11   a script conflicts: changed here and on the service (scripts status --exit-code, push, pull)
  130  interrupted`;
