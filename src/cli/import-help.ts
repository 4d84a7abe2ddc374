/** The --help text of `model-gate import`. */
export const IMPORT_HELP = `Usage: model-gate import KIND FILE [flags] [-o OUT]

Turn a harness's results (Terminal-Bench, promptfoo, lm-evaluation-harness, Inspect, SWE-bench,
or any table) into a gate export (SPEC §1.1 JSONL), or a validity annotation sheet into a reviews
file (SPEC §1.2 JSONL). Output goes to stdout (or -o OUT); notes on the defaults applied, the
dataset revision and the counts go to stderr. Lines are sorted by task id, keys in a fixed order,
so the same input gives the same bytes. Ambiguous input is refused, never guessed, and so is a
value the gate would refuse (an id with a control character, a bad metric), naming its place.

Kinds (results → export):
  terminal-bench        Terminal-Bench "tb run" output: a run's results.json (run_metadata.json
                        beside it, or --run-metadata), its run directory, or a directory of runs
                        of one config (one export; attempt = <run_id>/<k>). task = task_id,
                        attempt = k of "<task>.<k>-of-<n>"; is_resolved true → pass, false →
                        fail, null → infra_error (failure_mode in the evidence); agent_timeout
                        keeps the trial's outcome. Needs --model-config (tb records no model).
                        Metrics: tokens_in, tokens_out.
  promptfoo             promptfoo "eval --output results.json": one config per provider (its id,
                        or --model-config-from label; with several prompts "<provider> | <prompt
                        label>"), task = the test's description (else vars:<hash>), attempt =
                        the repeat; success → pass, failureReason 2 (error) → infra_error, other
                        failures → fail. Metrics: latency_s, cost_usd, tokens_in, tokens_out.
  lm-eval               lm-evaluation-harness --log_samples samples_<task>_<timestamp>.jsonl, with
                        results_<timestamp>.json beside it (or --results-json): task =
                        <task>/<doc_id>; the line's metric (--metric) 1 → pass, 0 → fail, other
                        numbers need --threshold; several filters need --filter. model_config =
                        the results file's model_name.
  inspect               Inspect AI eval log, .eval (ZIP) or JSON, told apart by content: one row
                        per sample and epoch (attempt = epoch). A sample with an error →
                        infra_error (its message the evidence). Score rule: --score-map values
                        first; "C" → pass, "I" → fail; true/false; numbers: 1 → pass, 0 → fail,
                        or with --pass-threshold X, ≥ X → pass; anything else is an error naming
                        the sample. Dataset sample ids (eval.dataset.sample_ids) without any
                        sample → missing. Metrics: tokens_in, tokens_out, cost_usd (model_usage),
                        latency_s (working_time).
  table                 Any CSV or JSON Lines, one attempt per line, with a column map (--map):
                        task_id, result and model_config (or --model-config) are required;
                        attempt, cluster, harness_revision, metrics.<name> optional. Result
                        values: --pass-values, --fail-values, --infra-values; another value is
                        an error naming the row.
  swebench-report       SWE-bench harness run report <model>.<run_id>.json:
                        resolved_ids → pass, unresolved_ids → fail, error_ids → infra_error,
                        incomplete_ids (no prediction) → missing, empty_patch_ids → --empty-patch.
                        An id in two lists is an error.
  swebench-results      SWE-bench/experiments results/results.json {resolved, no_generation,
                        no_logs}: resolved → pass, no_logs → infra_error, no_generation →
                        --empty-patch, every other task of --tasks → fail. Requires --tasks
                        (unresolved ids are implicit in this format).
  swebench-leaderboard  swebench.com data/leaderboards.json, an entry's per_instance_details:
                        resolved true → pass, false → fail. --run FOLDER picks the entry (by its
                        folder, else its exact name); with several runs and no --run the error
                        lists them. A warning note is printed when the entry's published resolved
                        percentage disagrees with its per-instance values.
  swebench-pro          Scale's SWE-Bench Pro traj/<run>/eval_results.json {instance_id: bool}:
                        true → pass, false → fail.

Kinds (annotations → reviews):
  verified-annotations  OpenAI's SWE-bench Verified ensembled_annotations_public.csv. Default rule:
                        other_major_issues ≥ 1 (flagged) → broken; else with
                        s = max(underspecified, false_negative): s ≥ 3 → broken, s ≥ 2 → disputed,
                        else valid. Each row's note shows the scores and the rule applied.
  swebench-pro-audit    The SWE-Bench Pro validity audit (kimjune01/swebench-pro-audit); FILE is its
                        directory, holding KNOWN_BAD.md, COVERAGE.md, CLAIMS.md and
                        case_instance_ids.tsv ("<case>\t<instance id>" per data/cases/<case>/).
                        KNOWN_BAD.md → broken; claimed in CLAIMS.md and COVERAGE.md agrees →
                        broken (--claimed); claimed but COVERAGE.md disagrees → disputed;
                        ENTAILED, DETERMINED-codebase → valid; AMBIGUOUS, MISDETERMINED not
                        claimed → disputed. A case that cannot be labelled is an error.
  reviews-csv           Your own review sheet: CSV with header task_id, validity (unreviewed |
                        valid | broken | disputed) and optional reviewer, note, evidence,
                        dataset_revision columns (other columns are ignored and named in the notes).
                        An unknown validity, an empty task id or a task listed twice is an error.

Flags for every kind:
  --tasks FILE              the task set, one id per line. Ids of FILE outside it are left out and
                            reported (count and first few); results: tasks of the list absent from
                            FILE → missing; reviews: tasks without a label are named in the notes.
  --dataset-revision R      default: "sha256:" + sha256 of the task ids (the --tasks list, else the
                            ids in FILE) sorted by UTF-8 bytes and joined by "\\n"; printed in the
                            notes. Use the same value (or the same --tasks) for the results and the
                            reviews, or the reviews will not apply.
  --review-revision N       default 0 for results exports, 1 for reviews files (so the reviews'
                            labels, at the higher revision, decide the effective validity).
  --benchmark NAME          write "benchmark": NAME on every row (e.g. swe-verified or
                            private-canary): the gate decides each benchmark on its own tasks and
                            then all together; default none (the benchmark "default").
  -o, --out OUT             write to OUT instead of stdout.

Flags for results kinds:
  --model-config ID         default: swebench-report: the file name without .json;
                            swebench-results: the submission folder; swebench-leaderboard: the
                            run's folder; swebench-pro: the run directory; inspect: eval.model;
                            terminal-bench: model_name (required when tb recorded none);
                            lm-eval: model_name. promptfoo, table: each row's own config; the flag
                            renames a single one.
  --harness-revision R      default: inspect: "git:<commit>" from eval.revision; terminal-bench:
                            "git:<commit_hash>"; lm-eval: "git:<git_hash>"; table: the
                            harness_revision column if mapped; otherwise "unknown:<kind>": a
                            placeholder (the "unknown:" prefix is reserved), on which the gate's
                            harness checks fail; set a real one.
  --validity LABEL          the validity written on every row; default unreviewed (labels come
                            from a reviews file at a higher review revision).
  --empty-patch RESULT      swebench-report, swebench-results: what an empty patch / no_generation
                            counts as: fail (default), missing or infra_error. Alias --no-generation.
  --cluster MODE            SWE-bench kinds: auto (default: the repository owner/repo from each
                            instance id as "cluster", omitted if some id has no such shape), repo
                            (required), none.
  --run FOLDER              swebench-leaderboard: the entry to import.
  --board NAME              swebench-leaderboard: the board (e.g. Verified) when the run is on
                            several boards with different per-instance results.
  --scorer NAME             inspect: the scorer to read when samples have several.
  --pass-threshold X        inspect: numeric scores ≥ X pass, below fail.
  --score-map V=R[,V=R…]    inspect: extra string values, e.g. P=fail,N=fail (R: pass, fail,
                            infra_error).
  --run-metadata FILE       terminal-bench: the run's run_metadata.json, when it is not beside
                            results.json.
  --provider ID|LABEL       promptfoo: import only this provider.
  --model-config-from WHAT  promptfoo: id (default) or label: what names a provider's config.
  --prompt LABEL            promptfoo: import only this prompt (by its label or id).
  --results-json FILE       lm-eval: the results file, when it is not results_<timestamp>.json
                            beside the samples file.
  --metric NAME             lm-eval: the metric read (default: the one each line's "metrics"
                            list names).
  --threshold X             lm-eval: metric values ≥ X pass (≤ X for a lower-is-better metric);
                            needed for a metric that is not 0/1. Alias --pass-threshold.
  --filter NAME             lm-eval: the filter read when the samples have several.
  --map F=COL[,F=COL…]      table: export field → column, e.g. task_id=id,model_config=model,
                            result=correct,attempt=seed,cluster=repo,metrics.cost_usd=cost. A field
                            not mapped is read from a column of its own name when there is one.
  --pass-values V[,V…]      table: result values that mean pass (default: pass,true,1).
  --fail-values V[,V…]      table: result values that mean fail (default: fail,false,0).
  --infra-values V[,V…]     table: result values that mean infra_error (default: infra_error).
                            The value "missing" is always missing; an empty item, an empty cell.
  --format csv|jsonl        table: how FILE is read (default: by its extension, else its first
                            character: "{" → JSON Lines).

Flags for reviews kinds:
  --broken-at N             verified-annotations: s ≥ N → broken (default 3; 4 = never).
  --disputed-at N           verified-annotations: s ≥ N → disputed (default 2; ≤ --broken-at).
  --other-issues RULE       verified-annotations: a flagged other_major_issues makes the task
                            broken (default), disputed, or is ignored (ignore).
  --claimed RULE            swebench-pro-audit: a claim of CLAIMS.md that COVERAGE.md agrees with
                            is broken (default) or disputed (the audit is LLM-assisted).
  --reviewer NAME           the reviewer written on rows (reviews-csv: rows without one);
                            verified-annotations default: openai-swe-bench-verified-annotations;
                            swebench-pro-audit default: swebench-pro-audit.

Examples:
  model-gate import terminal-bench runs/2025-09-06__18-59-06 --model-config orchestrator-opus-4.1 -o opus.jsonl
  model-gate import promptfoo results.json --model-config-from label --harness-revision git:$(git rev-parse HEAD) -o pf.jsonl
  model-gate import lm-eval out/org__model/samples_gsm8k_2026-01-21T03-44-18.458309.jsonl --filter strict-match -o lm.jsonl
  model-gate import inspect logs/2026-11-02T09-12-44_bugfix.eval -o inspect.jsonl
  model-gate import table sheet.csv --map task_id=id,model_config=model,result=correct --pass-values yes --fail-values no -o t.jsonl
  model-gate import swebench-leaderboard leaderboards.json --run 20251124_mini-v1.16.0_claude-opus-4-5-20251101 -o a.jsonl
  model-gate import swebench-pro traj/gpt-5-250-turns-10132025/eval_results.json --tasks pro-tasks.txt -o b.jsonl
  model-gate import verified-annotations ensembled_annotations_public.csv --tasks verified-tasks.txt -o reviews.jsonl
  model-gate import swebench-pro-audit swebench-pro-audit/ --tasks pro-tasks.txt -o pro-reviews.jsonl
`;
