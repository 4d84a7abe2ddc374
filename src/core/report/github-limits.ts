/**
 * Size limits of the GitHub surfaces the report is written to. Lengths are JavaScript string
 * lengths (UTF-16 code units), which are never fewer than GitHub's character counts.
 */

/** Check run `output.text` (and `output.summary`): "Maximum length: 65535 characters" (REST API, check runs). */
export const CHECK_RUN_TEXT_MAX = 65535;

/** Issue / pull-request comment body: "Body is too long (maximum is 65536 characters)". */
export const COMMENT_BODY_MAX = 65536;

/** $GITHUB_STEP_SUMMARY: at most 1 MiB per step, in bytes (GitHub Actions docs, "Adding a job summary"). */
export const STEP_SUMMARY_MAX_BYTES = 1024 * 1024;

/** Check run annotations: at most 50 per create/update request (REST API, check runs `output.annotations`). */
export const ANNOTATIONS_PER_REQUEST = 50;

/** GitHub caps a webhook (and so an event payload) at 25 MB; a larger GITHUB_EVENT_PATH is not GitHub's. */
export const EVENT_PAYLOAD_MAX_BYTES = 25 * 1024 * 1024;
