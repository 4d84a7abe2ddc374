/**
 * swebench.com's `data/leaderboards.json`: `{"leaderboards": [{"name": "Verified", "results": [
 * {"folder": "20251124_mini-…", "name": "…", "resolved": 74.4, "per_instance_details":
 * {"astropy__astropy-12907": {"resolved": true, "cost": …, "api_calls": …}, …}}, …]}, …]}`.
 *
 * Only entries with `per_instance_details` can be imported (the others carry aggregates only).
 * `--run` picks the entry by its `folder` (exact), else by its `name` (exact); `--board` picks the
 * board when the run appears on several boards with different per-instance results.
 * resolved true → pass, false → fail; tasks of --tasks absent from the entry → missing.
 */
import {
  type ExportRow,
  Problems,
  applyTaskList,
  compareIds,
  fileError,
  isObject,
  jsonEvidence,
  listSome,
  missingRow,
  parseJsonFile,
  pointer,
  typeName,
} from "./common.js";
import type { ImporterInput, ResultsDraft } from "./types.js";
import { unicodeNearMatch } from "../core/unicode-near-match.js";

interface Entry {
  board: string;
  boardIndex: number;
  index: number;
  folder: string | undefined;
  name: string | undefined;
  resolvedPercent: number | undefined;
  details: Record<string, unknown> | undefined;
}

function describe(e: Entry): string {
  return `${e.folder ?? "(no folder)"} on board ${JSON.stringify(e.board)}`;
}

/** Every board's entries, in file order, with the boards' names. */
function readEntries(
  doc: unknown,
  problems: Problems,
  summary: string,
): { entries: Entry[]; boardNames: string[] } {
  if (!isObject(doc) || !Array.isArray(doc["leaderboards"])) {
    problems.fail(summary, `expected an object with a "leaderboards" array`, { field: "/leaderboards" });
  }
  const boards = doc["leaderboards"] as unknown[];
  const entries: Entry[] = [];
  const boardNames: string[] = [];
  boards.forEach((b, bi) => {
    if (!isObject(b) || !Array.isArray(b["results"])) {
      problems.add(`expected a board object with a "results" array, found ${typeName(b)}`, {
        field: pointer("leaderboards", bi),
      });
      return;
    }
    const board = typeof b["name"] === "string" ? b["name"] : `#${bi}`;
    boardNames.push(board);
    (b["results"] as unknown[]).forEach((r, ri) => {
      if (!isObject(r)) return;
      const details = r["per_instance_details"];
      entries.push({
        board,
        boardIndex: bi,
        index: ri,
        folder: typeof r["folder"] === "string" ? r["folder"] : undefined,
        name: typeof r["name"] === "string" ? r["name"] : undefined,
        resolvedPercent: typeof r["resolved"] === "number" ? r["resolved"] : undefined,
        details: isObject(details) ? details : undefined,
      });
    });
  });
  problems.throwIfAny(summary);
  return { entries, boardNames };
}

/** The entries of the run `--run` names (or of the only run), on the board `--board` names if given. */
function chooseRun(
  file: string,
  opts: ImporterInput["opts"],
  { entries, boardNames }: { entries: Entry[]; boardNames: string[] },
  notes: string[],
): Entry[] {
  let pool = entries;
  if (opts.board !== undefined) {
    pool = entries.filter((e) => e.board === opts.board);
    if (!boardNames.includes(opts.board)) {
      fileError(
        file,
        `--board ${JSON.stringify(opts.board)}: no such board; boards: ${boardNames.join(", ")}` +
          unicodeNearMatch(opts.board, boardNames),
      );
    }
  }
  const importable = pool.filter((e) => e.details !== undefined);
  const runNames = [...new Set(importable.map((e) => e.folder ?? e.name ?? "?"))].sort(compareIds);
  const available = () =>
    runNames.length === 0
      ? "no entry has per_instance_details"
      : `runs with per_instance_details (${runNames.length}): ${runNames.join(", ")}`;

  let chosen: Entry[];
  if (opts.run === undefined) {
    if (runNames.length !== 1) {
      fileError(file, `the file holds several runs; choose one with --run FOLDER. ${available()}`);
    }
    chosen = importable;
    notes.push(`run: ${runNames[0] ?? ""} (the only run with per_instance_details)`);
  } else {
    const run = opts.run;
    chosen = importable.filter((e) => e.folder === run);
    let by = "folder";
    if (chosen.length === 0) {
      chosen = importable.filter((e) => e.name === run);
      by = "name";
    }
    if (chosen.length === 0) {
      const aggregatesOnly = pool.filter(
        (e) => e.details === undefined && (e.folder === run || e.name === run),
      );
      const why =
        aggregatesOnly.length > 0
          ? `${describe(aggregatesOnly[0] as Entry)} has no per_instance_details (aggregates only). `
          : `no entry has folder or name ${JSON.stringify(run)}. `;
      const names = pool.flatMap((e) => [e.folder, e.name].filter((v): v is string => v !== undefined));
      fileError(file, `--run ${JSON.stringify(run)}: ${why}${available()}${unicodeNearMatch(run, names)}`);
    }
    const folders = new Set(chosen.map((e) => e.folder));
    if (by === "name" && folders.size > 1) {
      fileError(
        file,
        `--run ${JSON.stringify(run)} matches the name of several runs (${[...folders].join(", ")}): give the folder`,
      );
    }
    notes.push(`run: ${chosen[0]?.folder ?? run} (matched by ${by})`);
  }

  return chosen;
}

/** One row a task of the entry's per_instance_details: resolved true → pass, false → fail. */
function rowsOfEntry(file: string, first: Entry, problems: Problems): Map<string, ExportRow> {
  const base = ["leaderboards", first.boardIndex, "results", first.index, "per_instance_details"] as const;
  const details = first.details ?? {};
  const rowsById = new Map<string, ExportRow>();
  for (const [id, v] of Object.entries(details)) {
    const ptr = pointer(...base, id, "resolved");
    if (!isObject(v) || typeof v["resolved"] !== "boolean") {
      const found = isObject(v) ? typeName(v["resolved"]) : typeName(v);
      problems.add(`expected {"resolved": true|false, …}, found ${found}`, { field: ptr });
      continue;
    }
    rowsById.set(id, {
      task_id: id,
      result: v["resolved"] ? "pass" : "fail",
      evidence: [jsonEvidence(file, ptr)],
    });
  }
  return rowsById;
}

export function importSwebenchLeaderboard({ opts, text, tasks }: ImporterInput): ResultsDraft {
  const file = opts.file;
  const problems: Problems = new Problems(file);
  const summary = `${file}: not a usable SWE-bench leaderboards.json`;
  const notes: string[] = [];
  const chosen = chooseRun(file, opts, readEntries(parseJsonFile(file, text), problems, summary), notes);
  const first = chosen[0] as Entry;
  if (chosen.length > 1) {
    const key = (e: Entry) => JSON.stringify(resolvedMap(e.details ?? {}));
    const same = chosen.every((e) => key(e) === key(first));
    if (!same) {
      fileError(
        file,
        `run ${JSON.stringify(first.folder)} is on several boards with different per-instance results ` +
          `(${chosen.map((e) => JSON.stringify(e.board)).join(", ")}): choose one with --board`,
      );
    }
    notes.push(
      `the run is on ${chosen.length} boards (${chosen.map((e) => e.board).join(", ")}) with identical ` +
        `per-instance results; read from board ${JSON.stringify(first.board)} (--board to choose)`,
    );
  }

  const rowsById = rowsOfEntry(file, first, problems);
  problems.throwIfAny(summary);

  const found = [...rowsById.keys()].sort(compareIds);
  const passes = found.filter((id) => rowsById.get(id)?.result === "pass").length;
  if (first.resolvedPercent !== undefined && found.length > 0) {
    const computed = (100 * passes) / found.length;
    if (Math.abs(computed - first.resolvedPercent) > 0.005) {
      notes.push(
        `WARNING: the entry publishes resolved = ${first.resolvedPercent}%, but its per_instance_details ` +
          `have ${passes}/${found.length} resolved = ${computed.toFixed(2)}%; the per-instance values are imported`,
      );
    }
  }
  const { keep, missing } = applyTaskList(found, tasks, notes, "instances of the run");
  const rows = found.filter((id) => keep.has(id)).map((id) => rowsById.get(id) as ExportRow);
  for (const id of missing) rows.push(missingRow(id, file, tasks));
  if (missing.length > 0) {
    notes.push(
      `${missing.length} tasks of the task list are absent from the run: written as missing (${listSome(missing)})`,
    );
  }
  notes.push(
    `per_instance_details: ${found.length} instances, ${passes} resolved; resolved true → pass, false → fail`,
  );
  return {
    rows,
    taskIds: tasks?.ids ?? found,
    taskIdsFrom: tasks ? `the task list ${tasks.file}` : "the run's per_instance_details",
    modelConfig: { value: first.folder ?? first.name ?? "swebench-run", from: "the run's folder" },
    notes,
  };
}

/** The id → resolved map of an entry, sorted, for comparing one run across boards. */
function resolvedMap(details: Record<string, unknown>): [string, unknown][] {
  return Object.keys(details)
    .sort(compareIds)
    .map((id) => {
      const v = details[id];
      return [id, isObject(v) ? v["resolved"] : v];
    });
}
