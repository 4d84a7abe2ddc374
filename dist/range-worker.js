import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 985:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var node_worker_threads__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(919);
/* harmony import */ var node_worker_threads__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_worker_threads__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _read_builder_dataset_builder_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(859);
/* harmony import */ var _read_range_read_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(647);
// Range worker entry point (bundled to dist/range-worker.js): reads one byte range of a results
// file into a DatasetBuilder of its own, answers once with what it read, then posts the builder's
// state part by part as the main thread asks for them (src/read/range-read.ts).



const port = node_worker_threads__WEBPACK_IMPORTED_MODULE_0__.parentPort;
if (port === null) {
    process.stderr.write("range-worker.js is started by the gate as a worker thread, not run directly\n");
    process.exitCode = 3;
}
else {
    const task = node_worker_threads__WEBPACK_IMPORTED_MODULE_0__.workerData;
    const state = await (0,_read_range_read_js__WEBPACK_IMPORTED_MODULE_2__/* .readRangeState */ .$O)(task, (t) => new _read_builder_dataset_builder_js__WEBPACK_IMPORTED_MODULE_1__/* .DatasetBuilder */ .S(t.baseline, t.candidate, t.fileNames, t.limits));
    port.on("message", (k) => {
        // Not from the main thread: a bug. Failing makes the main thread read the range again.
        if (typeof k !== "number")
            throw new Error("range worker: unexpected message");
        const { snapshot, transfer } = state.part(k);
        port.postMessage({ part: k, snapshot }, transfer);
    });
    port.postMessage(state.answer);
}

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 77:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Nk: () => (/* binding */ ModelColumns),
/* harmony export */   Nt: () => (/* binding */ F_CANDIDATE),
/* harmony export */   RJ: () => (/* binding */ F_LABEL0_OWN),
/* harmony export */   RL: () => (/* binding */ NARROW_COUNT_MAX),
/* harmony export */   YH: () => (/* binding */ TaskIndex),
/* harmony export */   b2: () => (/* binding */ TaskColumns),
/* harmony export */   g$: () => (/* binding */ AttemptIds),
/* harmony export */   l_: () => (/* binding */ F_RANKED),
/* harmony export */   qI: () => (/* binding */ AttemptPool),
/* harmony export */   rr: () => (/* binding */ F_BASELINE),
/* harmony export */   sH: () => (/* binding */ F_LABEL0),
/* harmony export */   t1: () => (/* binding */ F_MORE_LABELS)
/* harmony export */ });
/**
 * The DatasetBuilder's per-task state, by task number (0, 1, … in the order the tasks are first
 * seen): typed arrays for the numbers, plain arrays for the strings and evidence lists, and side
 * maps for what few tasks have (a second label, a second harness revision, more than one attempt
 * id, a cluster conflict): a few objects a task would cost a task-heavy export most of its memory.
 */
/** Bits of TaskColumns.flags. */
const F_BASELINE = 1;
const F_CANDIDATE = 2;
/** The task's first label is held inline (label0Revision, label0Validity, label0Src). */
const F_LABEL0 = 4;
/** The first label's evidence is its own list (label0Evidence), not the task's list. */
const F_LABEL0_OWN = 8;
/** The task has labels after its first (moreLabels). */
const F_MORE_LABELS = 16;
/** One of the rank's models (RankedModels: a K-model read) has a row on the task. */
const F_RANKED = 32;
/** Integer attempt ids below this are held in an array indexed by the id. */
const DENSE_ATTEMPTS = 1 << 12;
/** 2^34: a packed value is file * 2^34 + line * 4 + result (dataset-builder.ts's source * 4 + result). */
const PACKED_FILE = 2 ** 34;
/** The largest value a slot holds (0 marks a free slot). */
const SLOT_MAX = 2 ** 32 - 1;
/** Slots of one slab of an AttemptPool (256 KiB); blocks are 8 … DENSE_ATTEMPTS slots. */
const SLAB_SLOTS = 1 << 16;
/** Block sizes by class: 8 << class. */
const MIN_BLOCK = 8;
/**
 * Blocks of Uint32 slots for every AttemptIds of a builder, in slabs of SLAB_SLOTS: a typed array
 * per (model, task) costs hundreds of bytes of ArrayBuffer bookkeeping each and leaves every array
 * it grew out of as garbage until a full collection. A block an AttemptIds grows out of is kept
 * for the next one that grows to its size.
 */
class AttemptPool {
    slabs = [];
    /** Free blocks by class, as slab * SLAB_SLOTS + offset. */
    free = [];
    /** Where the next new block of the last slab starts. */
    used = SLAB_SLOTS;
    /** A block of MIN_BLOCK << cls zeroed slots, as slab * SLAB_SLOTS + offset. */
    take(cls) {
        const reused = this.free[cls]?.pop();
        if (reused !== undefined)
            return reused;
        const size = MIN_BLOCK << cls;
        if (this.used + size > SLAB_SLOTS) {
            this.slabs.push(new Uint32Array(SLAB_SLOTS));
            this.used = 0;
        }
        const at = (this.slabs.length - 1) * SLAB_SLOTS + this.used;
        this.used += size;
        return at;
    }
    /** Returns a block (zeroed here) for reuse. */
    give(cls, block) {
        const slab = this.slabs[Math.floor(block / SLAB_SLOTS)];
        const at = block % SLAB_SLOTS;
        slab?.fill(0, at, at + (MIN_BLOCK << cls));
        (this.free[cls] ??= []).push(block);
    }
}
/** The pool of AttemptIds made without one (a builder passes its own, freed with it). */
const SHARED_POOL = new AttemptPool();
/**
 * Attempt ids → packed source * 4 + result index, as a Map would hold them (1 and "1" apart).
 * Attempts are usually numbered 1, 2, 3, …: those sit in a block of Uint32 slots indexed by the id
 * (4 bytes an id, where a Map entry takes ~40 and its table grows by doubling; an AttemptPool
 * holds the blocks), as line * 4 + result + 1 of the file of the first such id; anything else (a
 * string, a sparse or large id, another file, a line past 2^30) in a Map: an attempt-heavy export
 * would otherwise hold a Map entry an attempt.
 */
class AttemptIds {
    pool;
    /** The block (AttemptPool.take), its slab and offset there (undefined: no block yet), its
     * class, the ids in it. */
    block = 0;
    slab;
    at = 0;
    cls = 0;
    denseCount = 0;
    /** The file (packed / 2^34) of every value in the block; -1 before the first. */
    file = -1;
    other;
    constructor(pool = SHARED_POOL) {
        this.pool = pool;
    }
    capacity() {
        return this.slab === undefined ? 0 : MIN_BLOCK << this.cls;
    }
    inDense(id) {
        return (typeof id === "number" &&
            Number.isInteger(id) &&
            id >= 0 &&
            (id < this.capacity() || id < Math.min(DENSE_ATTEMPTS, 4 * this.denseCount + 64)));
    }
    get(id) {
        const slab = this.slab;
        if (typeof id === "number" && slab !== undefined && id >= 0 && id < MIN_BLOCK << this.cls) {
            // (A fraction is never held in the block: `slab[at + 1.5]` reads nothing.)
            const v = slab[this.at + id];
            if (v !== undefined && v !== 0 && Number.isInteger(id))
                return this.file * PACKED_FILE + v - 1;
        }
        return this.other?.get(id);
    }
    set(id, packed) {
        const file = Math.floor(packed / PACKED_FILE);
        const slot = packed - file * PACKED_FILE + 1;
        if (!this.inDense(id) ||
            !Number.isSafeInteger(packed) ||
            packed < 0 ||
            slot > SLOT_MAX ||
            (this.file >= 0 && file !== this.file)) {
            if (this.inBlock(id))
                this.clear(id);
            (this.other ??= new Map()).set(id, packed);
            return;
        }
        if (id >= this.capacity())
            this.grow(id);
        this.file = file;
        const slab = this.slab;
        if (slab[this.at + id] === 0)
            this.denseCount++;
        slab[this.at + id] = slot;
        this.other?.delete(id);
    }
    inBlock(id) {
        return typeof id === "number" && Number.isInteger(id) && id >= 0 && id < this.capacity();
    }
    clear(id) {
        const slab = this.slab;
        if (slab[this.at + id] !== 0)
            this.denseCount--;
        slab[this.at + id] = 0;
    }
    /** A block with room for `id`; the values move over and the old block goes back to the pool. */
    grow(id) {
        let cls = this.slab === undefined ? 0 : this.cls + 1;
        while (MIN_BLOCK << cls <= id)
            cls++;
        const block = this.pool.take(cls);
        const slab = this.pool.slabs[Math.floor(block / SLAB_SLOTS)];
        const at = block % SLAB_SLOTS;
        const old = this.slab;
        if (old !== undefined) {
            slab.set(old.subarray(this.at, this.at + (MIN_BLOCK << this.cls)), at);
            this.pool.give(this.cls, this.block);
        }
        this.block = block;
        this.slab = slab;
        this.at = at;
        this.cls = cls;
    }
    /** Calls `f` for every id held with its value (block ids ascending, then the others as added). */
    forEach(f) {
        AttemptIds.each(this, f);
    }
    /** How many ids are held, and the characters of the string ones (what the builder counts as held). */
    held() {
        let chars = 0;
        this.other?.forEach((_, id) => {
            if (typeof id === "string")
                chars += id.length;
        });
        return { ids: this.denseCount + (this.other?.size ?? 0), chars };
    }
    /**
     * forEach of `ids`, an AttemptIds or its structured clone (a plain object with the same fields,
     * its slab a copy of its pool's: what a worker thread posts), read through the fields only.
     */
    static each(ids, f) {
        const slab = ids.slab;
        if (slab !== undefined) {
            const base = ids.file * PACKED_FILE - 1;
            const size = MIN_BLOCK << ids.cls;
            for (let id = 0; id < size; id++) {
                const v = slab[ids.at + id];
                if (v !== 0)
                    f(id, base + v);
            }
        }
        ids.other?.forEach((packed, id) => {
            f(id, packed);
        });
    }
    /**
     * The ids of `plain` (an AttemptIds of any pool, or its structured clone: see each) as an
     * AttemptIds of `pool`, with `delta` added to every value (sources moved by delta / 4 lines).
     * Nothing of plain is kept: a block of another builder's pool (or of a clone of it, a slab that
     * other ids of the same post share) is never written through the copy.
     */
    static revive(plain, delta, pool) {
        const out = new AttemptIds(pool);
        // A block of the same size first, so that the ids in plain's block stay in one (set() takes
        // an id into the block only while the ids stay dense, counted as they come).
        if (plain.slab !== undefined)
            out.grow((MIN_BLOCK << plain.cls) - 1);
        AttemptIds.each(plain, (id, packed) => {
            out.set(id, packed + delta);
        });
        return out;
    }
}
function grownF64(a, size) {
    const b = new Float64Array(size);
    b.set(a);
    return b;
}
function grownU32(a, size) {
    const b = new Uint32Array(size);
    b.set(a);
    return b;
}
/** The largest count a narrow (Uint32) count column holds. */
const NARROW_COUNT_MAX = 0xffffffff;
function grownCounts(a, size) {
    const b = a instanceof Float64Array ? new Float64Array(size) : new Uint32Array(size);
    b.set(a);
    return b;
}
function grownU8(a, size) {
    const b = new Uint8Array(size);
    b.set(a);
    return b;
}
/**
 * A compared model on every task: its first harness revision inline (harness undefined: no row
 * of this model on the task), the counts, further attempt ids and harness revisions by task.
 */
class ModelColumns {
    harness = [];
    a0 = [];
    info = new Float64Array(0);
    a0info = new Float64Array(0);
    /**
     * The counts: Uint32 columns (4 bytes a task each, where Float64 takes 8) until a count passes NARROW_COUNT_MAX (a pre-aggregated row can hold any safe integer),
     * then all four Float64 (widen). Written through setCounts, or checked against
     * NARROW_COUNT_MAX first: a Uint32Array would wrap a larger value silently.
     */
    pass = new Uint32Array(0);
    fail = new Uint32Array(0);
    infraError = new Uint32Array(0);
    missing = new Uint32Array(0);
    /** 1 where the model has a row on the task (a ranked model's own flag: F_RANKED is shared). */
    seen = new Uint8Array(0);
    narrow = true;
    /** Task → attempt values after the first of its first harness revision. */
    more = new Map();
    /** Task → further harness revisions. */
    others = new Map();
    /** Task i's further harness revisions, the map made on first use. */
    othersOf(i) {
        let others = this.others.get(i);
        if (others === undefined) {
            others = new Map();
            this.others.set(i, others);
        }
        return others;
    }
    grow(size) {
        this.info = grownF64(this.info, size);
        this.a0info = grownF64(this.a0info, size);
        this.pass = grownCounts(this.pass, size);
        this.fail = grownCounts(this.fail, size);
        this.infraError = grownCounts(this.infraError, size);
        this.missing = grownCounts(this.missing, size);
        this.seen = grownU8(this.seen, size);
    }
    /** The count columns as Float64 (every count of the model then held exactly to 2^53). */
    widen() {
        if (!this.narrow)
            return;
        this.narrow = false;
        this.pass = Float64Array.from(this.pass);
        this.fail = Float64Array.from(this.fail);
        this.infraError = Float64Array.from(this.infraError);
        this.missing = Float64Array.from(this.missing);
    }
    /** Task i's four counts (safe integers), the columns widened first when one needs it. */
    setCounts(i, pass, fail, infraError, missing) {
        if (this.narrow &&
            (pass > NARROW_COUNT_MAX ||
                fail > NARROW_COUNT_MAX ||
                infraError > NARROW_COUNT_MAX ||
                missing > NARROW_COUNT_MAX))
            this.widen();
        this.pass[i] = pass;
        this.fail[i] = fail;
        this.infraError[i] = infraError;
        this.missing[i] = missing;
    }
    push() {
        this.harness.push(undefined);
        this.a0.push(undefined);
    }
    /**
     * Drops what only the read needs (harness revisions and attempt ids, to fold repeats and catch
     * conflicts), keeping the counts: the Dataset is made at the read's peak memory
     * (dataset-finish.ts), which is lower without them.
     */
    releaseAttempts() {
        this.harness.length = 0;
        this.a0.length = 0;
        this.info = new Float64Array(0);
        this.a0info = new Float64Array(0);
        this.more.clear();
        this.others.clear();
    }
}
class TaskColumns {
    count = 0;
    capacity = 0;
    taskIds = [];
    /** The task's evidence (de-duplicated, first seen first, capped), packed (packed-evidence.ts). */
    evidence = [];
    clusters = [];
    /** Index of the task's dataset revision (DatasetBuilder.revisionList). */
    revision = new Uint32Array(0);
    flags = new Uint8Array(0);
    topRevision = new Float64Array(0);
    /** Index into VALIDITIES. */
    topValidity = new Uint8Array(0);
    clusterSrc = new Float64Array(0);
    label0Revision = new Float64Array(0);
    label0Validity = new Uint8Array(0);
    label0Src = new Float64Array(0);
    /** Task → the first label's own evidence list (F_LABEL0_OWN). */
    label0Evidence = new Map();
    /** Task → reviewer and note of its first label, when given (a review). */
    label0Meta = new Map();
    moreLabels = new Map();
    /** Task → the first row that contradicted its cluster. */
    clusterConflicts = new Map();
    baseline = new ModelColumns();
    candidate = new ModelColumns();
    /** The rank's models in a K-model read (RankedModels), in the order first seen or given. */
    ranked = [];
    /** A ranked model's columns, sized for the tasks held so far. */
    addRanked() {
        const m = new ModelColumns();
        m.grow(this.capacity);
        for (let i = 0; i < this.count; i++)
            m.push();
        this.ranked.push(m);
        return m;
    }
    /** A new task's number. */
    add(revision, taskId) {
        if (this.count === this.capacity)
            this.grow(Math.max(1024, this.capacity * 2));
        const i = this.count++;
        this.taskIds.push(taskId);
        this.evidence.push(undefined);
        this.clusters.push(undefined);
        this.revision[i] = revision;
        this.topRevision[i] = -1;
        this.baseline.push();
        this.candidate.push();
        for (const m of this.ranked)
            m.push();
        return i;
    }
    grow(size) {
        this.capacity = size;
        this.revision = grownU32(this.revision, size);
        this.flags = grownU8(this.flags, size);
        this.topRevision = grownF64(this.topRevision, size);
        this.topValidity = grownU8(this.topValidity, size);
        this.clusterSrc = grownF64(this.clusterSrc, size);
        this.label0Revision = grownF64(this.label0Revision, size);
        this.label0Validity = grownU8(this.label0Validity, size);
        this.label0Src = grownF64(this.label0Src, size);
        this.baseline.grow(size);
        this.candidate.grow(size);
        for (const m of this.ranked)
            m.grow(size);
    }
}
/**
 * Task numbers by (dataset revision index, task_id): open addressing over one Int32Array of
 * (hash, task number + 1) pairs. A miss, the usual case for a new task of a task-heavy export,
 * touches one cache line instead of a Map's bucket, entries and key strings; the task's own
 * strings are compared only when the hashes agree.
 */
class TaskIndex {
    table = new Int32Array(2 * 1024);
    mask = 1023;
    size = 0;
    /** The empty slot where the last missed key would go (see add). */
    free = 0;
    static hash(revision, taskId) {
        let h = Math.imul(revision + 1, 0x9e3779b1) ^ 0x811c9dc5;
        for (let k = 0; k < taskId.length; k++)
            h = Math.imul(h ^ taskId.charCodeAt(k), 0x01000193);
        return h ^ (h >>> 15);
    }
    /** The task number of (revision, taskId) with hash h, or -1. */
    find(h, revision, taskId, cols) {
        const table = this.table;
        let s = h & this.mask;
        for (;;) {
            const v = table[2 * s + 1] ?? 0;
            if (v === 0) {
                this.free = s;
                return -1;
            }
            if (table[2 * s] === h) {
                const i = v - 1;
                if (cols.taskIds[i] === taskId && cols.revision[i] === revision)
                    return i;
            }
            s = (s + 1) & this.mask;
        }
    }
    /** Adds task i with hash h: call right after `find` missed it. */
    add(h, i) {
        this.table[2 * this.free] = h;
        this.table[2 * this.free + 1] = i + 1;
        this.size++;
        // At most half full: probes stay short.
        if (2 * this.size > this.mask)
            this.grow();
    }
    grow() {
        const old = this.table;
        const slots = 2 * (this.mask + 1);
        this.table = new Int32Array(2 * slots);
        this.mask = slots - 1;
        for (let s = 0; s < old.length; s += 2) {
            const v = old[s + 1] ?? 0;
            if (v === 0)
                continue;
            const h = old[s] ?? 0;
            let t = h & this.mask;
            while ((this.table[2 * t + 1] ?? 0) !== 0)
                t = (t + 1) & this.mask;
            this.table[2 * t] = h;
            this.table[2 * t + 1] = v;
        }
    }
}


/***/ }),

/***/ 806:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Kp: () => (/* binding */ columnBuffers),
/* harmony export */   Ml: () => (/* binding */ sliceColumns),
/* harmony export */   dn: () => (/* binding */ reviveColumns)
/* harmony export */ });
/* harmony import */ var _builder_columns_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(77);
/**
 * A builder's columns between threads (range-read.ts): the buffers to transfer with a structured
 * clone, the columns revived from one (sources moved to the file's line numbers), and a part of
 * them (a range's state is posted in parts).
 */

/**
 * The typed arrays' buffers of `cols`, to transfer (not copy) them when its structured clone is
 * posted to another thread.
 */
function columnBuffers(cols) {
    const out = [];
    const add = (a) => {
        if (a.buffer instanceof ArrayBuffer && !out.includes(a.buffer))
            out.push(a.buffer);
    };
    for (const a of [cols.revision, cols.flags, cols.topRevision, cols.topValidity, cols.clusterSrc])
        add(a);
    for (const a of [cols.label0Revision, cols.label0Validity, cols.label0Src])
        add(a);
    for (const m of [cols.baseline, cols.candidate]) {
        for (const a of [m.info, m.a0info, m.pass, m.fail, m.infraError, m.missing])
            add(a);
    }
    return out;
}
/**
 * TaskColumns from `plain`, a TaskColumns or its structured clone (a plain object with the same
 * fields, AttemptIds as plain objects too: what a worker thread posts), with every source moved
 * by `lines` (a range's lines numbered from 1 become the file's). Takes over plain's arrays, maps
 * and label events (moved in place); its attempt ids are copied into `pool` (the receiving
 * builder's), never kept in the blocks of the builder that made them.
 */
function reviveColumns(plain, lines, pool) {
    const cols = Object.assign(new _builder_columns_js__WEBPACK_IMPORTED_MODULE_0__/* .TaskColumns */ .b2(), plain, {
        baseline: reviveModel(plain.baseline, lines, pool),
        candidate: reviveModel(plain.candidate, lines, pool),
    });
    if (lines === 0)
        return cols;
    for (let i = 0; i < cols.count; i++) {
        cols.label0Src[i] = (cols.label0Src[i] ?? 0) + lines;
        cols.clusterSrc[i] = (cols.clusterSrc[i] ?? 0) + lines;
    }
    for (const more of cols.moreLabels.values()) {
        for (const e of more.events)
            e.src += lines;
    }
    for (const [i, c] of cols.clusterConflicts)
        cols.clusterConflicts.set(i, { value: c.value, src: c.src + lines });
    return cols;
}
function reviveModel(plain, lines, pool) {
    const more = new Map();
    for (const [i, ids] of plain.more)
        more.set(i, _builder_columns_js__WEBPACK_IMPORTED_MODULE_0__/* .AttemptIds */ .g$.revive(ids, 4 * lines, pool));
    const others = new Map();
    for (const [i, held] of plain.others) {
        const revived = new Map();
        for (const [harness, h] of held) {
            revived.set(harness, {
                harness: h.harness,
                info: h.info + 2 * lines,
                a0: h.a0,
                a0info: h.a0info + 4 * lines,
                more: h.more === undefined ? undefined : _builder_columns_js__WEBPACK_IMPORTED_MODULE_0__/* .AttemptIds */ .g$.revive(h.more, 4 * lines, pool),
            });
        }
        others.set(i, revived);
    }
    const m = Object.assign(new _builder_columns_js__WEBPACK_IMPORTED_MODULE_0__/* .ModelColumns */ .Nk(), plain, { more, others });
    if (lines !== 0) {
        for (let i = 0; i < m.info.length; i++) {
            m.info[i] = (m.info[i] ?? 0) + 2 * lines;
            m.a0info[i] = (m.a0info[i] ?? 0) + 4 * lines;
        }
    }
    return m;
}
/**
 * Tasks [from, to) of `cols` as columns of their own (task from becomes task 0), to post a
 * builder's state in parts: each part, absorbed, is garbage before the next is decoded.
 */
function sliceColumns(cols, from, to) {
    const part = (m, copy = (v) => v) => {
        const out = new Map();
        for (const [i, v] of m)
            if (i >= from && i < to)
                out.set(i - from, copy(v));
        return out;
    };
    // The part's attempt ids in a pool of its own: ids of the builder's pool would bring all of its
    // slabs (every part's ids, and the free blocks) into each part's structured clone.
    const pool = new _builder_columns_js__WEBPACK_IMPORTED_MODULE_0__/* .AttemptPool */ .qI();
    const ids = (a) => _builder_columns_js__WEBPACK_IMPORTED_MODULE_0__/* .AttemptIds */ .g$.revive(a, 0, pool);
    const harnesses = (held) => {
        const out = new Map();
        for (const [name, h] of held)
            out.set(name, { ...h, more: h.more === undefined ? undefined : ids(h.more) });
        return out;
    };
    const model = (m) => Object.assign(new _builder_columns_js__WEBPACK_IMPORTED_MODULE_0__/* .ModelColumns */ .Nk(), {
        harness: m.harness.slice(from, to),
        a0: m.a0.slice(from, to),
        info: m.info.slice(from, to),
        a0info: m.a0info.slice(from, to),
        pass: m.pass.slice(from, to),
        fail: m.fail.slice(from, to),
        infraError: m.infraError.slice(from, to),
        missing: m.missing.slice(from, to),
        more: part(m.more, ids),
        others: part(m.others, harnesses),
    });
    return Object.assign(new _builder_columns_js__WEBPACK_IMPORTED_MODULE_0__/* .TaskColumns */ .b2(), {
        count: to - from,
        capacity: to - from,
        taskIds: cols.taskIds.slice(from, to),
        evidence: cols.evidence.slice(from, to),
        clusters: cols.clusters.slice(from, to),
        revision: cols.revision.slice(from, to),
        flags: cols.flags.slice(from, to),
        topRevision: cols.topRevision.slice(from, to),
        topValidity: cols.topValidity.slice(from, to),
        clusterSrc: cols.clusterSrc.slice(from, to),
        label0Revision: cols.label0Revision.slice(from, to),
        label0Validity: cols.label0Validity.slice(from, to),
        label0Src: cols.label0Src.slice(from, to),
        label0Evidence: part(cols.label0Evidence),
        label0Meta: part(cols.label0Meta),
        moreLabels: part(cols.moreLabels),
        clusterConflicts: part(cols.clusterConflicts),
        baseline: model(cols.baseline),
        candidate: model(cols.candidate),
    });
}


/***/ }),

/***/ 859:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  S: () => (/* binding */ DatasetBuilder)
});

;// CONCATENATED MODULE: ./src/core/quote.ts
/**
 * How the gate shows a string from its input inside a message: JSON-quoted, cut to a readable
 * length, with every character that could drive a terminal or reorder the message's text
 * escaped. Shared by the reader's messages and the core's.
 */
const SHOWN_STRING_LENGTH = 60;
/** Shown escaped in messages besides what JSON escapes: DEL, C1, line separators, bidi controls. */
const ESCAPED_IN_MESSAGES = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same plus C0, for a text quoted raw (a parser's message quotes the line as it is). */
const ESCAPED_IN_RAW_TEXT = new RegExp(`[\\u0000-\\u001f${ESCAPED_IN_MESSAGES.source.slice(1)}`, "g");
function escapeChar(c) {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
/** JSON-quoted and cut to a readable length. Control characters come out escaped (JSON escapes
 * C0; DEL, C1, line separators and bidi controls are escaped here too), so a message cannot drive
 * a terminal or reorder its own text. */
function quote(s) {
    return quoteUpTo(s, SHOWN_STRING_LENGTH);
}
/** quote() with its own length (e.g. a revision shown whole, to be copied into a flag). */
function quoteUpTo(s, max) {
    const shown = s.length <= max ? s : s.slice(0, max);
    const text = JSON.stringify(shown).replace(ESCAPED_IN_MESSAGES, escapeChar);
    return shown === s ? text : `${text}… (${s.length} characters)`;
}
/** A text that quotes input raw (e.g. V8's JSON.parse message), with C0 controls escaped too. */
function escapeRawText(text) {
    return text.replace(ESCAPED_IN_RAW_TEXT, escapeChar);
}

// EXTERNAL MODULE: ./src/read/lines/line-flags.ts
var line_flags = __nccwpck_require__(530);
// EXTERNAL MODULE: ./src/read/limits.ts
var read_limits = __nccwpck_require__(826);
;// CONCATENATED MODULE: ./src/read/rows/row-checks.ts
/**
 * Validation of one export row (SPEC §1.1) or one review row (§1.2), by direct checks: this runs
 * once per line, so it allocates nothing on the happy path (one reusable output struct) and only
 * builds messages for bad lines. Each message says what was expected and what the line had.
 *
 * Choices the SPEC leaves open:
 * - `null` in an OPTIONAL field (evidence, attempt, cluster, reviewer, note, and `result` or the
 *   counts when deciding the row's shape) is the same as the field being absent: warehouse and
 *   dataframe exports write null for "no value". A required field that is null is an error.
 * - Identifiers (task_id, dataset_revision, harness_revision, model_config, a string attempt,
 *   cluster, reviewer) must be non-empty, at most MAX_ID_LENGTH long, and free of control
 *   characters (C0 U+0000–U+001F, DEL, C1 U+0080–U+009F). They are map keys (NUL separates the
 *   parts of a task key) and they are printed in terminals and Markdown, where a newline or an
 *   escape sequence could fake report lines or drive the terminal. Tab is refused too: an id
 *   with a tab is a copy-paste accident, and guessing "trim it" is what §1.1 forbids.
 * - Evidence items follow the same rule with MAX_EVIDENCE_LENGTH; an empty evidence string is
 *   ignored (it cannot be a link). A note may hold newlines and tabs (other controls are refused).
 * - `attempt` 1 and `attempt` "1" are different attempts (no type coercion).
 * - A pre-aggregated row carries the four integer counts `passes`, `fails`, `infra_errors`,
 *   `missing` (all four, at least one above 0) instead of `result`, and no `attempt`.
 */


/** Result index used in packed attempt records: 0 pass, 1 fail, 2 infra_error, 3 missing. */
const RESULT_NAMES = ["pass", "fail", "infra_error", "missing"];
const RESULT_EXPECTED = "expected one of pass, fail, infra_error, missing";
const VALIDITY_EXPECTED = "expected one of unreviewed, valid, broken, disputed";
const COUNT_FIELDS = ["passes", "fails", "infra_errors", "missing"];
// eslint-disable-next-line no-control-regex
const ID_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const NOTE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** How a bad value is shown in a message: short, JSON-escaped, never the whole of a huge value. */
function describeValue(v) {
    if (v === undefined)
        return "nothing";
    if (v === null)
        return "null";
    if (typeof v === "string") {
        if (v.length === 0)
            return "an empty string";
        return quote(v);
    }
    if (typeof v === "number" || typeof v === "boolean")
        return String(v);
    if (Array.isArray(v))
        return "an array";
    return "an object";
}
/** The problems of one line: the first in full, the names of the other fields. */
class LineIssues {
    field = undefined;
    message = undefined;
    otherFields = undefined;
    reset() {
        this.field = undefined;
        this.message = undefined;
        this.otherFields = undefined;
    }
    get any() {
        return this.message !== undefined;
    }
    add(field, message) {
        if (this.message === undefined) {
            this.field = field;
            this.message = message;
        }
        else if (field !== undefined && field !== this.field && !(this.otherFields ?? []).includes(field)) {
            (this.otherFields ??= []).push(field);
        }
    }
    /** The line's message: the first problem, plus which other fields are also wrong. */
    text() {
        const msg = this.message ?? "";
        if (this.otherFields === undefined)
            return msg;
        const names = this.otherFields.map((f) => `"${f}"`).join(", ");
        return this.otherFields.length === 1
            ? `${msg} (field ${names} on this line is wrong too)`
            : `${msg} (fields ${names} on this line are wrong too)`;
    }
}
function emptyExportRow() {
    return {
        taskId: "",
        datasetRevision: "",
        harnessRevision: "",
        modelConfig: "",
        validity: "unreviewed",
        reviewRevision: 0,
        result: -1,
        passes: 0,
        fails: 0,
        infraErrors: 0,
        missing: 0,
        evidence: undefined,
        packedEvidence: undefined,
        packedItems: 0,
        attempt: undefined,
        cluster: undefined,
    };
}
function emptyReviewRow() {
    return {
        taskId: "",
        datasetRevision: "",
        validity: "unreviewed",
        reviewRevision: 0,
        evidence: undefined,
        reviewer: undefined,
        note: undefined,
    };
}
/** Parses a line into an object, or records why it is not one. */
function parseObject(text, issues) {
    let v;
    try {
        v = JSON.parse(text);
    }
    catch (e) {
        // V8 quotes a snippet of the line in its message: escape what could drive a terminal.
        const why = escapeRawText(e instanceof Error ? e.message : String(e));
        issues.add(undefined, `expected a JSON object; the line is not valid JSON (${why})`);
        return undefined;
    }
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
        issues.add(undefined, `expected a JSON object; got ${describeValue(v)}`);
        return undefined;
    }
    // Counting the keys is cheap; finding which one repeats is done only when one does.
    const repeated = topLevelKeys(text) === Object.keys(v).length ? undefined : repeatedKey(text);
    if (repeated !== undefined) {
        // JSON.parse keeps the last value: which one was meant is a guess (SPEC §1.1 guesses nothing).
        issues.add(SHOWN_AS_FIELD.test(repeated) ? repeated : undefined, `the key ${quote(repeated)} is given twice on this line; expected each field once`);
        return undefined;
    }
    return v;
}
/** A repeated key is named as the problem's field when it reads safely as one. */
const SHOWN_AS_FIELD = /^[A-Za-z0-9_]{1,64}$/;
/**
 * How many keys the top level of a JSON object's text has, repeats included. `text` must be a
 * valid JSON object. Strings are skipped with indexOf when the text has no backslash.
 */
function topLevelKeys(text) {
    const plain = text.indexOf("\\") === -1;
    let depth = 0;
    let keys = 0;
    let expectKey = false;
    const n = text.length;
    for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x22) {
            if (depth === 1 && expectKey) {
                keys++;
                expectKey = false;
            }
            if (plain) {
                i = text.indexOf('"', i + 1);
                if (i < 0)
                    break;
            }
            else {
                for (i++; i < n; i++) {
                    const d = text.charCodeAt(i);
                    if (d === 0x5c)
                        i++;
                    else if (d === 0x22)
                        break;
                }
            }
        }
        else if (c === 0x7b || c === 0x5b) {
            depth++;
            if (depth === 1)
                expectKey = true;
        }
        else if (c === 0x7d || c === 0x5d) {
            depth--;
        }
        else if (c === 0x2c && depth === 1) {
            expectKey = true;
        }
    }
    return keys;
}
/**
 * The first top-level key of a JSON object's text that repeats an earlier one (compared after
 * unescaping, as JSON.parse does), or undefined. `text` must be a valid JSON object (JSON.parse
 * accepted it). Nested objects are in fields the gate does not read, and are not checked.
 */
function repeatedKey(text) {
    let depth = 0;
    let expectKey = false;
    let keys;
    let first;
    const n = text.length;
    for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x22) {
            let j = i + 1;
            let escaped = false;
            for (;;) {
                const d = text.charCodeAt(j);
                if (d === 0x5c) {
                    escaped = true;
                    j += 2;
                }
                else if (d === 0x22 || Number.isNaN(d)) {
                    break;
                }
                else {
                    j++;
                }
            }
            if (depth === 1 && expectKey) {
                const key = escaped ? JSON.parse(text.slice(i, j + 1)) : text.slice(i + 1, j);
                if (first === undefined) {
                    first = key;
                }
                else {
                    if (keys === undefined)
                        keys = new Set([first]);
                    if (keys.has(key))
                        return key;
                    keys.add(key);
                }
                expectKey = false;
            }
            i = j;
        }
        else if (c === 0x7b || c === 0x5b) {
            depth++;
            if (depth === 1)
                expectKey = true;
        }
        else if (c === 0x7d || c === 0x5d) {
            depth--;
        }
        else if (c === 0x2c && depth === 1) {
            expectKey = true;
        }
    }
    return undefined;
}
/**
 * Whether `s` holds a character of ID_FORBIDDEN. `plain` is the line reader's promise that no
 * string of the line can (see line-splitter.ts's LineHandler): a RegExp test of every identifier
 * and evidence item of every line is a cost per line worth avoiding.
 */
function hasControl(s, plain) {
    return !plain && ID_FORBIDDEN.test(s);
}
/** A non-empty identifier without control characters. Returns "" after recording a problem. */
function idField(obj, field, issues, plain) {
    const v = obj[field];
    if (typeof v === "string" && v.length > 0 && v.length <= read_limits/* MAX_ID_LENGTH */.Qx && !hasControl(v, plain))
        return v;
    issues.add(field, idProblem(v));
    return "";
}
/** Like idField, for an optional field: undefined when absent or null. */
function optionalIdField(obj, field, issues, plain) {
    const v = obj[field];
    if (v === undefined || v === null)
        return undefined;
    if (typeof v === "string" && v.length > 0 && v.length <= read_limits/* MAX_ID_LENGTH */.Qx && !hasControl(v, plain))
        return v;
    issues.add(field, idProblem(v));
    return undefined;
}
function idProblem(v) {
    if (v === undefined)
        return "expected a non-empty string; the field is missing";
    if (typeof v !== "string" || v.length === 0)
        return `expected a non-empty string; got ${describeValue(v)}`;
    if (v.length > read_limits/* MAX_ID_LENGTH */.Qx) {
        return `expected at most ${read_limits/* MAX_ID_LENGTH */.Qx} characters; got ${v.length}`;
    }
    return `expected no control characters (U+0000-U+001F, U+007F-U+009F); got ${quote(v)}`;
}
function validityField(obj, issues) {
    const v = obj["validity"];
    switch (v) {
        case "valid":
        case "disputed":
        case "unreviewed":
        case "broken":
            return v;
        default:
            issues.add("validity", v === undefined
                ? `${VALIDITY_EXPECTED}; the field is missing`
                : `${VALIDITY_EXPECTED}; got ${describeValue(v)}`);
            return "unreviewed";
    }
}
function resultIndex(v) {
    switch (v) {
        case "pass":
            return 0;
        case "fail":
            return 1;
        case "infra_error":
            return 2;
        case "missing":
            return 3;
        default:
            return -1;
    }
}
/** An integer >= 0 that is a safe integer; -1 after recording a problem. */
function countField(obj, field, issues) {
    const v = obj[field];
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0)
        return v;
    if (v === undefined) {
        issues.add(field, "expected an integer >= 0; the field is missing");
    }
    else if (typeof v === "number" && Number.isInteger(v) && v > 0) {
        issues.add(field, `expected an integer >= 0 no larger than ${Number.MAX_SAFE_INTEGER}; got ${v}`);
    }
    else {
        issues.add(field, `expected an integer >= 0; got ${describeValue(v)}`);
    }
    return -1;
}
/** Validated evidence: undefined, a string, or an array of strings (empty strings allowed, ignored later). */
function evidenceField(obj, issues, plain) {
    const v = obj["evidence"];
    if (v === undefined || v === null)
        return undefined;
    if (typeof v === "string") {
        const bad = evidenceItemProblem(v, plain);
        if (bad === undefined)
            return v;
        issues.add("evidence", bad);
        return undefined;
    }
    if (!Array.isArray(v)) {
        issues.add("evidence", `expected a string or an array of strings; got ${describeValue(v)}`);
        return undefined;
    }
    const items = v;
    for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (typeof item !== "string") {
            issues.add(`evidence[${i}]`, `expected a string; got ${describeValue(item)}`);
            return undefined;
        }
        const bad = evidenceItemProblem(item, plain);
        if (bad !== undefined) {
            issues.add(`evidence[${i}]`, bad);
            return undefined;
        }
    }
    return items;
}
function evidenceItemProblem(s, plain) {
    if (s.length > read_limits/* MAX_EVIDENCE_LENGTH */.Yb)
        return `expected at most ${read_limits/* MAX_EVIDENCE_LENGTH */.Yb} characters; got ${s.length}`;
    if (hasControl(s, plain)) {
        return `expected no control characters (U+0000-U+001F, U+007F-U+009F); got ${quote(s)}`;
    }
    return undefined;
}
/**
 * Checks one export row into `out`. Returns false (and fills `issues`) when the row is bad; every
 * field is checked so that the message can name all the wrong ones.
 */
function checkExportRow(obj, out, issues, plain = false) {
    out.taskId = idField(obj, "task_id", issues, plain);
    out.datasetRevision = idField(obj, "dataset_revision", issues, plain);
    out.harnessRevision = idField(obj, "harness_revision", issues, plain);
    out.modelConfig = idField(obj, "model_config", issues, plain);
    out.validity = validityField(obj, issues);
    const rawResult = obj["result"];
    const hasResult = rawResult !== undefined && rawResult !== null;
    let countsGiven = 0;
    let firstCount;
    for (const f of COUNT_FIELDS) {
        const c = obj[f];
        if (c !== undefined && c !== null) {
            countsGiven++;
            firstCount ??= f;
        }
    }
    if (hasResult) {
        out.result = resultIndex(rawResult);
        if (out.result < 0)
            issues.add("result", `${RESULT_EXPECTED}; got ${describeValue(rawResult)}`);
        if (countsGiven > 0) {
            issues.add("result", `a row has either "result" (one attempt) or the counts passes, fails, infra_errors, missing ` +
                `(a pre-aggregated row), not both; this one also has "${firstCount ?? ""}"`);
        }
    }
    else if (countsGiven === 0) {
        out.result = -1;
        issues.add("result", `${RESULT_EXPECTED} (or, for a pre-aggregated row, the four counts passes, fails, ` +
            `infra_errors, missing); the field is missing`);
    }
    else {
        out.result = -1;
        out.passes = countField(obj, "passes", issues);
        out.fails = countField(obj, "fails", issues);
        out.infraErrors = countField(obj, "infra_errors", issues);
        out.missing = countField(obj, "missing", issues);
        if (out.passes === 0 && out.fails === 0 && out.infraErrors === 0 && out.missing === 0) {
            issues.add("passes", "a pre-aggregated row needs at least one count above 0; all four are 0");
        }
    }
    const rev = obj["review_revision"];
    if (typeof rev === "number" && Number.isSafeInteger(rev) && rev >= 0) {
        out.reviewRevision = rev;
    }
    else {
        countField(obj, "review_revision", issues);
    }
    out.evidence = evidenceField(obj, issues, plain);
    out.packedEvidence = undefined;
    out.packedItems = 0;
    const attempt = obj["attempt"];
    if (attempt === undefined || attempt === null) {
        out.attempt = undefined;
    }
    else if (!hasResult && countsGiven > 0) {
        issues.add("attempt", "not allowed on a pre-aggregated row (one with counts instead of a result)");
    }
    else if (typeof attempt === "number") {
        if (Number.isSafeInteger(attempt)) {
            out.attempt = attempt;
        }
        else {
            issues.add("attempt", `expected a non-empty string or an integer; got ${describeValue(attempt)}`);
        }
    }
    else if (typeof attempt === "string" &&
        attempt.length > 0 &&
        attempt.length <= read_limits/* MAX_ID_LENGTH */.Qx &&
        !hasControl(attempt, plain)) {
        out.attempt = attempt;
    }
    else if (typeof attempt === "string") {
        issues.add("attempt", idProblem(attempt));
    }
    else {
        issues.add("attempt", `expected a non-empty string or an integer; got ${describeValue(attempt)}`);
    }
    out.cluster = optionalIdField(obj, "cluster", issues, plain);
    return !issues.any;
}
/** Checks one review row into `out` (SPEC §1.2). */
function checkReviewRow(obj, out, issues, plain = false) {
    out.taskId = idField(obj, "task_id", issues, plain);
    out.datasetRevision = idField(obj, "dataset_revision", issues, plain);
    out.validity = validityField(obj, issues);
    const rev = obj["review_revision"];
    if (typeof rev === "number" && Number.isSafeInteger(rev) && rev >= 0) {
        out.reviewRevision = rev;
    }
    else {
        countField(obj, "review_revision", issues);
    }
    out.evidence = evidenceField(obj, issues, plain);
    out.reviewer = optionalIdField(obj, "reviewer", issues, plain);
    const note = obj["note"];
    if (note === undefined || note === null) {
        out.note = undefined;
    }
    else if (typeof note !== "string") {
        issues.add("note", `expected a string; got ${describeValue(note)}`);
    }
    else if (note.length > read_limits/* MAX_NOTE_LENGTH */.XG) {
        issues.add("note", `expected at most ${read_limits/* MAX_NOTE_LENGTH */.XG} characters; got ${note.length}`);
    }
    else if (NOTE_FORBIDDEN.test(note)) {
        issues.add("note", `expected no control characters other than tab and line ends; got ${quote(note)}`);
    }
    else {
        out.note = note;
    }
    return !issues.any;
}

;// CONCATENATED MODULE: ./src/read/rows/packed-evidence.ts
/**
 * A task's evidence list as the reader holds it (issue 15): its items joined by a line feed into
 * one string, undefined when it has none. Items are never empty and never hold a control
 * character (row-checks.ts refuses them), so the separator cannot occur inside one. One string a
 * task instead of an array, its elements and a string an item: less memory a task, and two fewer
 * objects for every collection to visit. The rows' checks read the packed string in
 * place (`packedRunAt`); only a list that grows is unpacked, and only records and histories made
 * on request unpack it for the report.
 */
const SEPARATOR = "\n";
const SEPARATOR_CODE = 0x0a;
/** The packed form of a list (undefined when it is empty or undefined). */
function pack(items) {
    if (items === undefined || items.length === 0)
        return undefined;
    return items.length === 1 ? items[0] : items.join(SEPARATOR);
}
/** The items of a packed list, as a new array (undefined when it has none). */
function unpack(packed) {
    return packed === undefined ? undefined : packed.split(SEPARATOR);
}
/** How many items a packed list holds. */
function packedCount(packed) {
    if (packed === undefined)
        return 0;
    let n = 1;
    for (let at = packed.indexOf(SEPARATOR); at >= 0; at = packed.indexOf(SEPARATOR, at + 1))
        n++;
    return n;
}
/** The characters of a packed list's items (its separators not counted). */
function packedChars(packed) {
    return packed === undefined ? 0 : packed.length - (packedCount(packed) - 1);
}
/**
 * Whether `items` (one item or several) stand in `packed` one after another as whole items from
 * character `at`, an item's start. With `whole`, they must also end the list there. The items are
 * a row's: they hold no control character either (the reader refused the row otherwise).
 */
function packedRunAt(packed, at, items, whole = false) {
    if (packed === undefined)
        return false;
    if (typeof items === "string")
        return itemAt(packed, at, items, true, whole) >= 0;
    const n = items.length;
    if (n === 0)
        return !whole || at >= packed.length;
    let p = at;
    for (let k = 0; k < n; k++) {
        p = itemAt(packed, p, items[k], k === n - 1, whole);
        if (p < 0)
            return false;
    }
    return true;
}
/** The next item's start after `item` at `at` (or the list's end for the last), else -1. */
function itemAt(packed, at, item, last, whole) {
    const end = at + item.length;
    // (A slice compared with ===, not startsWith: V8's startsWith compares a character at a time,
    // slower on a row's long items; a slice of 13 or more is a view, not a copy.)
    if (end > packed.length || packed.slice(at, end) !== item)
        return -1;
    // (An item before another needs a separator after it.)
    if (end === packed.length)
        return last ? end : -1;
    if (packed.charCodeAt(end) !== SEPARATOR_CODE || (last && whole))
        return -1;
    return end + 1;
}
/** Whether a packed list begins with exactly these items (so holds them all). */
function packedStartsWith(packed, items) {
    return packedRunAt(packed, 0, items);
}
/** Whether a packed list holds exactly these items, in this order (undefined: none). */
function packedEquals(packed, items) {
    if (items === undefined || items.length === 0)
        return packed === undefined;
    return packedRunAt(packed, 0, items, true);
}
/** The start of `item` as a whole item of the packed list, or -1. */
function packedIndexOf(packed, item) {
    if (packed === undefined || item.length === 0)
        return -1;
    for (let at = packed.indexOf(item); at >= 0; at = packed.indexOf(item, at + 1)) {
        const end = at + item.length;
        if ((at === 0 || packed.charCodeAt(at - 1) === SEPARATOR_CODE) &&
            (end === packed.length || packed.charCodeAt(end) === SEPARATOR_CODE))
            return at;
    }
    return -1;
}

;// CONCATENATED MODULE: ./src/read/rows/scanner-parts.ts
/**
 * The byte scanner's parts (row-scanner.ts): the ids of the fields it reads, how it classes the
 * bytes of a string, the JSON pieces it reads from bytes (literals, numbers, whitespace, keys),
 * byte comparisons four bytes at a time, the table that turns recent bytes back into the same
 * string object, and the remembered shape of the last line.
 */
const FAST_SLICE = typeof Buffer.prototype.latin1Slice === "function" &&
    typeof Buffer.prototype.utf8Slice === "function";
// Field ids, by bit.
const F_TASK = 0;
const F_DATASET = 1;
const F_HARNESS = 2;
const F_MODEL = 3;
const F_VALIDITY = 4;
const F_RESULT = 5;
const F_REVIEW_REVISION = 6;
const F_ATTEMPT = 7;
const F_EVIDENCE = 8;
const F_CLUSTER = 9;
const F_PASSES = 10;
const F_FAILS = 11;
const F_INFRA_ERRORS = 12;
const F_MISSING = 13;
const F_OTHER = -1;
const KNOWN_FIELDS = 14;
const REQUIRED = (1 << F_TASK) |
    (1 << F_DATASET) |
    (1 << F_HARNESS) |
    (1 << F_MODEL) |
    (1 << F_VALIDITY) |
    (1 << F_REVIEW_REVISION);
const COUNTS = (1 << F_PASSES) | (1 << F_FAILS) | (1 << F_INFRA_ERRORS) | (1 << F_MISSING);
/** Keys of fields the gate ignores, remembered per line to find a repeated one. */
const MAX_OTHER_KEYS = 32;
/** A shape's keys and bytes at most (a longer one is not remembered). */
const MAX_SHAPE_KEYS = KNOWN_FIELDS + MAX_OTHER_KEYS;
const MAX_SHAPE_BYTES = 2048;
/** The longest string a StringTable holds, and the slots of the one for the fields that repeat
 * in runs (a cache of ids and evidence items by their bytes cost more than the strings it saved). */
const SLOT_BYTES = 96;
const REPEAT_SLOTS = 1 << 10;
/** A repeating field's bytes are remembered up to this length (longer ones: a string compare). */
const MAX_REPEAT_BYTES = 1024;
/** Evidence arrays of up to this many items are reused, one per length. */
const REUSED_EVIDENCE_LENGTHS = 8;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
/** How a string's byte is treated: one table load per byte. */
const BYTE_PLAIN = 0;
const BYTE_QUOTE = 1;
/** Leave the line to JSON.parse: C0 controls (invalid unescaped), backslash, DEL, C2. */
const BYTE_OTHER = 2;
const BYTE_NON_ASCII = 3;
const BYTE_CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
    BYTE_CLASS[c] =
        c === QUOTE
            ? BYTE_QUOTE
            : c < 0x20 || c === BACKSLASH || c === 0x7f || c === 0xc2
                ? BYTE_OTHER
                : c >= 0x80
                    ? BYTE_NON_ASCII
                    : BYTE_PLAIN;
}
function bytesOf(s) {
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
const KEYS = [
    [bytesOf("task_id"), F_TASK],
    [bytesOf("dataset_revision"), F_DATASET],
    [bytesOf("harness_revision"), F_HARNESS],
    [bytesOf("model_config"), F_MODEL],
    [bytesOf("validity"), F_VALIDITY],
    [bytesOf("result"), F_RESULT],
    [bytesOf("review_revision"), F_REVIEW_REVISION],
    [bytesOf("attempt"), F_ATTEMPT],
    [bytesOf("evidence"), F_EVIDENCE],
    [bytesOf("cluster"), F_CLUSTER],
    [bytesOf("passes"), F_PASSES],
    [bytesOf("fails"), F_FAILS],
    [bytesOf("infra_errors"), F_INFRA_ERRORS],
    [bytesOf("missing"), F_MISSING],
];
/** KEYS by length (keys are 5–16 bytes long). */
const KEYS_BY_LENGTH = [];
for (const entry of KEYS)
    (KEYS_BY_LENGTH[entry[0].length] ??= []).push(entry);
/** The values of validity and result, by index (each starts with its own letter: see wordAt). */
const VALIDITIES = ["valid", "broken", "disputed", "unreviewed"];
const VALIDITY_WORDS = VALIDITIES.map(bytesOf);
const RESULT_WORDS = ["pass", "fail", "infra_error", "missing"].map(bytesOf);
const TRUE = bytesOf("true");
const FALSE = bytesOf("false");
const NULL = bytesOf("null");
function equalAt(b, begin, end, word) {
    if (end - begin !== word.length)
        return false;
    for (let k = 0; k < word.length; k++)
        if (b[begin + k] !== word[k])
            return false;
    return true;
}
/**
 * The index of the word of `words` that the JSON string at `p` is (`"word"`), or -1. The words
 * start with distinct letters and hold no quote: one candidate, compared with the bytes up to the
 * closing quote that must follow it.
 */
function wordAt(b, p, end, words) {
    if (b[p] !== QUOTE)
        return -1;
    const first = p + 1 < end ? b[p + 1] : -1;
    for (let w = 0; w < words.length; w++) {
        const word = words[w];
        if (word === undefined || word[0] !== first)
            continue;
        const close = p + 1 + word.length;
        return close < end && b[close] === QUOTE && equalAt(b, p + 1, close, word) ? w : -1;
    }
    return -1;
}
function isSpace(c) {
    return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}
function isDigit(c) {
    return c >= ZERO && c <= NINE;
}
/** The first position from `p` that is not JSON whitespace (`end` when the line ends first). */
function skipSpace(b, p, end) {
    while (p < end && isSpace(b[p] ?? 0))
        p++;
    return p;
}
/** `word` at `p`: the position after it, or -1. */
function literal(b, p, end, word) {
    const stop = p + word.length;
    return stop <= end && equalAt(b, p, stop, word) ? stop : -1;
}
/** Any JSON number at `p` (validated, not converted): the position after it, or -1. */
function number(b, p, end) {
    if (p < end && b[p] === MINUS)
        p++;
    const first = p < end ? (b[p] ?? 0) : -1;
    if (first === ZERO) {
        p++;
    }
    else if (first > ZERO && first <= NINE) {
        p = digits(b, p + 1, end);
    }
    else {
        return -1;
    }
    if (p < end && b[p] === 0x2e) {
        const q = digits(b, p + 1, end);
        if (q === p + 1)
            return -1;
        p = q;
    }
    const e = p < end ? b[p] : -1;
    if (e === 0x65 || e === 0x45) {
        p++;
        if (p < end && (b[p] === 0x2b || b[p] === MINUS))
            p++;
        const q = digits(b, p, end);
        if (q === p)
            return -1;
        p = q;
    }
    return p;
}
/** The first position from `p` that is not a digit. */
function digits(b, p, end) {
    while (p < end && isDigit(b[p] ?? 0))
        p++;
    return p;
}
function keyId(b, begin, end) {
    const candidates = KEYS_BY_LENGTH[end - begin];
    if (candidates === undefined)
        return F_OTHER;
    for (const [word, id] of candidates)
        if (equalAt(b, begin, end, word))
            return id;
    return F_OTHER;
}
/**
 * Whether v[at, at + n) holds the bytes of r[rat, rat + n): four bytes at a time (DataView reads
 * are inlined by the JIT; a native compare costs more per call than these bytes do).
 */
function sameBytes(v, at, r, rat, n) {
    if (n < 4) {
        for (let i = 0; i < n; i++)
            if (v.getUint8(at + i) !== r.getUint8(rat + i))
                return false;
        return true;
    }
    const last = n - 4;
    for (let i = 0; i < last; i += 4)
        if (v.getInt32(at + i, true) !== r.getInt32(rat + i, true))
            return false;
    // The last four bytes (overlapping the word before when n is not a multiple of 4).
    return v.getInt32(at + last, true) === r.getInt32(rat + last, true);
}
/**
 * Whether the four bytes of x (any order) are all plain in a string: ASCII, and none a control
 * byte, a quote, a backslash or DEL. Each test is exact on whether some byte has the property
 * (the bit tricks of "Determine if a word has a byte less than n"; DEL as x + 1 reaching 0x80, only
 * once no byte is at or above 0x80).
 */
function plainWord(x) {
    const q = x ^ 0x22222222;
    const s = x ^ 0x5c5c5c5c;
    return (((x | ((x - 0x20202020) & ~x) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s) | (x + 0x01010101)) &
        0x80808080) ===
        0);
}
function slice(b, begin, end, ascii) {
    if (FAST_SLICE) {
        const s = b;
        return ascii ? s.latin1Slice(begin, end) : s.utf8Slice(begin, end);
    }
    return b.toString(ascii ? "latin1" : "utf8", begin, end);
}
/**
 * The last value of a field that repeats in runs: its length in bytes (-1: not remembered) and
 * where its bytes are, the slot of the StringTable that holds it (short values: the slot's string
 * is then the value, as long as the slot's bytes are the same) or its own copy (`slot` -1).
 */
class RepeatCache {
    length = -1;
    slot = -1;
    value = "";
    bytes = new Uint8Array(MAX_REPEAT_BYTES);
    view = new DataView(this.bytes.buffer);
    /** Remembers `value`, the string of b[begin, end), which the table holds in `slot` (or -1). */
    set(b, begin, end, value, slot) {
        const n = end - begin;
        this.value = value;
        this.slot = slot;
        if (slot >= 0) {
            this.length = n;
        }
        else if (n <= MAX_REPEAT_BYTES) {
            b.copy(this.bytes, 0, begin, end);
            this.length = n;
        }
        else {
            this.length = -1;
        }
    }
}
/** A hash of the n bytes at v[at]: their length and three words (first, middle, last). */
function shortHash(v, at, n) {
    let h = Math.imul(n, 0x9e3779b1);
    if (n >= 4) {
        h = Math.imul(h ^ v.getInt32(at, true), 0x85ebca6b);
        h = Math.imul(h ^ v.getInt32(at + n - 4, true), 0xc2b2ae35);
        h = Math.imul(h ^ v.getInt32(at + ((n - 4) >> 1), true), 0x27d4eb2f);
    }
    else {
        for (let i = 0; i < n; i++)
            h = Math.imul(h ^ v.getUint8(at + i), 0x85ebca6b);
    }
    return h ^ (h >>> 15);
}
/**
 * Strings by their bytes (at most SLOT_BYTES), one per slot, a newer one taking the slot: the same
 * bytes give the same string object while it stays, and no string is made. The slot comes from
 * shortHash; the bytes are compared whole.
 */
class StringTable {
    strings;
    lengths;
    bytes;
    view;
    mask;
    /** `slots`: a power of 2. */
    constructor(slots) {
        this.mask = slots - 1;
        this.strings = new Array(slots).fill("");
        this.lengths = new Int32Array(slots).fill(-1);
        this.bytes = new Uint8Array(slots * SLOT_BYTES);
        this.view = new DataView(this.bytes.buffer);
    }
    /** The slot `get` used last. */
    slot = 0;
    /** The string of `slot` when its bytes are the n bytes at v[at]. */
    at(slot, v, at, n) {
        return this.lengths[slot] === n && sameBytes(v, at, this.view, slot * SLOT_BYTES, n)
            ? this.strings[slot]
            : undefined;
    }
    /** The string of the UTF-8 bytes b[begin, end) (ASCII when `ascii`), which `v` holds at `at`. */
    get(b, v, at, begin, end, ascii) {
        const n = end - begin;
        const slot = shortHash(v, at, n) & this.mask;
        this.slot = slot;
        const o = slot * SLOT_BYTES;
        if (this.lengths[slot] === n && sameBytes(v, at, this.view, o, n))
            return this.strings[slot] ?? "";
        const s = slice(b, begin, end, ascii);
        const bytes = this.bytes;
        for (let i = 0; i < n; i++)
            bytes[o + i] = b[begin + i] ?? 0;
        this.lengths[slot] = n;
        this.strings[slot] = s;
        return s;
    }
}
/**
 * The shape of the last line read key by key: segment k (k < count) is the bytes from the end of
 * value k - 1 (the line's start for k = 0) to the start of value k, which names `fields[k]`;
 * segment `count` is the bytes from the end of the last value to the line's end.
 */
class Shape {
    count = 0;
    /** false: the line was too long or had too many keys to remember (the shape is not used). */
    ok = true;
    bytes = new Uint8Array(MAX_SHAPE_BYTES);
    view = new DataView(this.bytes.buffer);
    /** Segment k is bytes[starts[k], starts[k + 1]). */
    starts = new Int32Array(MAX_SHAPE_KEYS + 2);
    fields = new Int8Array(MAX_SHAPE_KEYS);
    /** Where the key's contents begin and end, from the segment's start (other keys: repeats). */
    keyBegin = new Int32Array(MAX_SHAPE_KEYS);
    keyEnd = new Int32Array(MAX_SHAPE_KEYS);
    /** Segment k at p (of a line ending at `end`, read through `v` at `base`): the position after
     * it, or -1. */
    match(v, base, p, end, k) {
        const s = this.starts[k] ?? 0;
        const n = (this.starts[k + 1] ?? 0) - s;
        return p + n <= end && sameBytes(v, base + p, this.view, s, n) ? p + n : -1;
    }
    /** The first k segments of `other`. */
    startFrom(other, k) {
        const used = other.starts[k] ?? 0;
        this.bytes.set(other.bytes.subarray(0, used));
        this.starts.set(other.starts.subarray(0, k + 1));
        this.fields.set(other.fields.subarray(0, k));
        this.keyBegin.set(other.keyBegin.subarray(0, k));
        this.keyEnd.set(other.keyEnd.subarray(0, k));
        this.count = k;
        // (k is 0 when `other` is not ok: nothing of it is kept.)
        this.ok = true;
    }
    /** Appends segment b[from, to) (the last one when `field` is undefined). */
    add(b, from, to, field, keyBegin = 0, keyEnd = 0) {
        if (!this.ok)
            return;
        const k = this.count;
        const used = this.starts[k] ?? 0;
        if (k >= MAX_SHAPE_KEYS || used + (to - from) > MAX_SHAPE_BYTES) {
            this.ok = false;
            return;
        }
        b.copy(this.bytes, used, from, to);
        this.starts[k + 1] = used + (to - from);
        if (field === undefined)
            return;
        this.fields[k] = field;
        this.keyBegin[k] = keyBegin;
        this.keyEnd[k] = keyEnd;
        this.count = k + 1;
    }
}

;// CONCATENATED MODULE: ./src/read/rows/row-scanner.ts
/**
 * A byte scanner for the common shape of an export row (issue 15): it reads the fields the gate
 * needs straight from the line's UTF-8 bytes, without building the object JSON.parse builds
 * (which was most of the reader's time), and accepts a line only when it is sure of it.
 *
 * `scan` returns true only for a line that is valid JSON, a flat object whose keys are all
 * distinct, and a row checkExportRow accepts; then `out` holds exactly what checkExportRow would
 * put there. For any other line it returns false and the caller takes the JSON.parse path
 * (row-checks.ts), which finds and words every problem: so both paths have the same checks and the same
 * messages by construction, and the scanner only has to be right about what it accepts
 * (test/read/rows/row-scanner.test.ts compares both on fuzzed lines).
 *
 * What it leaves to JSON.parse (returns false): any backslash (escapes), any control byte, DEL or
 * byte C2 (U+0080–U+00BF: C1 controls are refused in ids) inside a string, an object or array as
 * the value of a field the gate ignores, numbers with a fraction, an exponent or a minus sign, or
 * of more than 15 digits in a field the gate reads, a wrong type or value anywhere, a repeated key,
 * more than MAX_OTHER_KEYS other keys.
 *
 * What makes it cheap per row (most of a row's bytes are the same as in the row before):
 * - The line's shape: the bytes of the row before from the end of one value to the start of the
 *   next (`,"key":` with its spaces), remembered with the field each key names. A line whose keys
 *   come in the same order matches them byte for byte, which also proves them distinct and the
 *   punctuation right (the same bytes in the same place parse the same way); where it differs,
 *   the scanner reads key by key from there, and the line's shape replaces the old one.
 * - The four fields that repeat in runs (dataset and harness revisions, model, cluster) are
 *   compared with the bytes of their last value, then looked up in a small table of recent values
 *   by their bytes: a value seen recently comes back as the same string object, and no string is
 *   made. (A table for task ids and evidence items too cost more than the strings it saved.)
 * - Bytes are compared, and strings searched for their closing quote, four at a time (DataView
 *   reads, which the JIT inlines; a native Buffer.compare costs more a call than the few dozen
 *   bytes of a field, and indexOf would still leave every byte to check for control bytes).
 * It allocates nothing for a row but the strings it hands out (task id, evidence items or, for the
 * builder, one packed evidence list: see the constructor; attempt and repeating values when new).
 */



class RowScanner {
    packEvidence;
    /** Set by stringEnd: whether the string just scanned is all ASCII. */
    ascii = true;
    /** Set by the value readers: the string or count read. */
    text = "";
    num = 0;
    /** Per line: the fields given as null, and whether an attempt was given. */
    nulls = 0;
    attemptGiven = false;
    otherKeys = new Int32Array(2 * MAX_OTHER_KEYS);
    items = [];
    /** An evidence array's items as they stand in the line: begin and end (closing quote) of each. */
    spans = new Int32Array(2 * read_limits/* MAX_EVIDENCE_PER_TASK */.zd);
    /** Where a packed evidence list is put together (packEvidence), grown as needed. */
    packing = Buffer.alloc(2 * 1024);
    packingView = new DataView(this.packing.buffer, this.packing.byteOffset, this.packing.length);
    evidenceArrays = Array.from({ length: REUSED_EVIDENCE_LENGTHS + 1 }, (_, n) => new Array(n).fill(""));
    dataset = new RepeatCache();
    harness = new RepeatCache();
    model = new RepeatCache();
    cluster = new RepeatCache();
    repeats = new StringTable(REPEAT_SLOTS);
    shape = new Shape();
    /** A view of the line's buffer (b.buffer: b starts at `base` in it), kept while it is the same. */
    view = new DataView(new ArrayBuffer(0));
    viewOf;
    /** The buffer `view` and `base` were last set for. */
    viewed;
    base = 0;
    nextShape = new Shape();
    /**
     * With `packEvidence`, an evidence array of 2 to MAX_EVIDENCE_PER_TASK distinct, non-empty ASCII
     * items comes as `packedEvidence`, one string (see ExportRow), instead of a string an item: the
     * builder keeps a task's list packed, and a task-heavy export's rows would each make three
     * strings where one does (the items and their join). Only a reader that knows packedEvidence
     * may ask for it.
     */
    constructor(packEvidence = false) {
        this.packEvidence = packEvidence;
    }
    /**
     * Scans the line `b[begin, end)` (valid UTF-8, no line end) into `out`. true: the row is valid
     * and `out` holds it (its evidence array is reused by later calls: copy what you keep);
     * false: parse the line with JSON.parse instead (`out` is then in an unspecified state).
     */
    scan(b, begin, end, out) {
        out.result = -1;
        out.passes = 0;
        out.fails = 0;
        out.infraErrors = 0;
        out.missing = 0;
        out.evidence = undefined;
        out.packedEvidence = undefined;
        out.packedItems = 0;
        out.attempt = undefined;
        out.cluster = undefined;
        this.nulls = 0;
        this.attemptGiven = false;
        if (b !== this.viewed) {
            this.viewed = b;
            this.base = b.byteOffset;
            if (b.buffer !== this.viewOf) {
                this.viewOf = b.buffer;
                this.view = new DataView(b.buffer);
            }
        }
        const view = this.view;
        const base = this.base;
        let seen = 0;
        let others = 0;
        let p = begin;
        // The keys of the shape, as long as they match.
        const shape = this.shape;
        const count = shape.ok ? shape.count : 0;
        let k = 0;
        for (; k < count; k++) {
            const q = shape.match(view, base, p, end, k);
            if (q < 0)
                break;
            const field = shape.fields[k] ?? F_OTHER;
            if (field === F_OTHER) {
                this.otherKeys[2 * others] = p + (shape.keyBegin[k] ?? 0);
                this.otherKeys[2 * others + 1] = p + (shape.keyEnd[k] ?? 0);
                others++;
            }
            else {
                seen |= 1 << field;
            }
            p = this.value(b, q, end, field, out);
            if (p < 0)
                return false;
        }
        if (k === count && count > 0 && shape.match(view, base, p, end, k) === end)
            return this.complete(seen, out);
        // Key by key from there (the line's start, or the end of a value), recording the line's shape.
        const next = this.nextShape;
        next.startFrom(shape, k);
        let from;
        for (;; k++) {
            from = p;
            if (k === 0) {
                p = skipSpace(b, p, end);
                if (b[p] !== LBRACE || p >= end)
                    return false;
                p = skipSpace(b, p + 1, end);
                if (p >= end || b[p] === RBRACE)
                    return false; // {} lacks every field
            }
            else {
                p = skipSpace(b, p, end);
                if (p >= end)
                    return false;
                const c = b[p];
                if (c === RBRACE)
                    break;
                if (c !== COMMA)
                    return false;
                p = skipSpace(b, p + 1, end);
            }
            // A key.
            if (p >= end || b[p] !== QUOTE)
                return false;
            const keyBegin = p + 1;
            const keyEnd = this.stringEnd(b, keyBegin, end);
            if (keyEnd < 0)
                return false;
            const field = keyId(b, keyBegin, keyEnd);
            if (field === F_OTHER) {
                if (!this.newOtherKey(b, keyBegin, keyEnd, others))
                    return false;
                others++;
            }
            else {
                const bit = 1 << field;
                if ((seen & bit) !== 0)
                    return false;
                seen |= bit;
            }
            p = skipSpace(b, keyEnd + 1, end);
            if (p >= end || b[p] !== COLON)
                return false;
            p = skipSpace(b, p + 1, end);
            next.add(b, from, p, field, keyBegin - from, keyEnd - from);
            // Its value.
            p = this.value(b, p, end, field, out);
            if (p < 0)
                return false;
        }
        // Only spaces after the object.
        for (let q = p + 1; q < end; q++)
            if (!isSpace(b[q] ?? 0))
                return false;
        if (!this.complete(seen, out))
            return false;
        next.add(b, from, end);
        if (next.ok) {
            this.nextShape = shape;
            this.shape = next;
        }
        return true;
    }
    /** The checks of a whole row once its fields are read: `seen` has a bit per key given. */
    complete(seen, out) {
        const given = seen & ~this.nulls;
        if ((given & REQUIRED) !== REQUIRED)
            return false;
        const counts = given & COUNTS;
        if ((given & (1 << F_RESULT)) !== 0)
            return counts === 0;
        // Pre-aggregated: all four counts, at least one above 0, and no attempt.
        if (counts !== COUNTS || this.attemptGiven)
            return false;
        if (out.passes === 0 && out.fails === 0 && out.infraErrors === 0 && out.missing === 0)
            return false;
        out.result = -1;
        return true;
    }
    /**
     * The string whose contents start at `begin`: returns the index of its closing quote, or -1 to
     * give up (no closing quote, or a byte left to JSON.parse: see the file's comment). Sets
     * `ascii`.
     */
    stringEnd(b, begin, end) {
        const v = this.view;
        const base = this.base;
        let ascii = true;
        let p = begin;
        for (;;) {
            // Four bytes at a time while none of them is special (see plainWord), then the four bytes
            // that hold one (or the last ones) byte by byte.
            while (p + 4 <= end && plainWord(v.getInt32(base + p, true)))
                p += 4;
            const stop = p + 4 < end ? p + 4 : end;
            for (; p < stop; p++) {
                const k = BYTE_CLASS[b[p] ?? 0] ?? BYTE_OTHER;
                if (k === BYTE_PLAIN)
                    continue;
                if (k === BYTE_QUOTE) {
                    this.ascii = ascii;
                    return p;
                }
                if (k === BYTE_OTHER)
                    return -1;
                ascii = false;
            }
            if (p >= end)
                return -1;
        }
    }
    /** A key the gate ignores: false when the line already had it (or too many such keys). */
    newOtherKey(b, begin, end, count) {
        if (count >= MAX_OTHER_KEYS)
            return false;
        const keys = this.otherKeys;
        const n = end - begin;
        for (let k = 0; k < count; k++) {
            const at = keys[2 * k] ?? 0;
            if ((keys[2 * k + 1] ?? 0) - at !== n)
                continue;
            let i = 0;
            while (i < n && b[at + i] === b[begin + i])
                i++;
            if (i === n)
                return false;
        }
        keys[2 * count] = begin;
        keys[2 * count + 1] = end;
        return true;
    }
    /** The value of `field` at `p`, into `out`: the position after it, or -1 to give up. */
    value(b, p, end, field, out) {
        if (p >= end)
            return -1;
        const c = b[p] ?? 0;
        if (field === F_OTHER) {
            // A value of a field the gate ignores: a string, number or literal (objects and arrays: no).
            if (c === QUOTE) {
                const close = this.stringEnd(b, p + 1, end);
                return close < 0 ? -1 : close + 1;
            }
            if (c === 0x74)
                return literal(b, p, end, TRUE);
            if (c === 0x66)
                return literal(b, p, end, FALSE);
            if (c === 0x6e)
                return literal(b, p, end, NULL);
            return number(b, p, end);
        }
        if (c === 0x6e) {
            // null: the same as absent for an optional field, an error for a required one.
            const q = literal(b, p, end, NULL);
            if (q >= 0)
                this.nulls |= 1 << field;
            return q;
        }
        switch (field) {
            case F_TASK: {
                const q = this.id(b, p, end, read_limits/* MAX_ID_LENGTH */.Qx, false);
                if (q >= 0)
                    out.taskId = this.text;
                return q;
            }
            case F_DATASET: {
                const q = this.repeated(b, p, end, this.dataset);
                if (q >= 0)
                    out.datasetRevision = this.text;
                return q;
            }
            case F_HARNESS: {
                const q = this.repeated(b, p, end, this.harness);
                if (q >= 0)
                    out.harnessRevision = this.text;
                return q;
            }
            case F_MODEL: {
                const q = this.repeated(b, p, end, this.model);
                if (q >= 0)
                    out.modelConfig = this.text;
                return q;
            }
            case F_CLUSTER: {
                const q = this.repeated(b, p, end, this.cluster);
                if (q >= 0)
                    out.cluster = this.text;
                return q;
            }
            case F_VALIDITY: {
                const w = wordAt(b, p, end, VALIDITY_WORDS);
                const validity = VALIDITIES[w];
                if (validity === undefined)
                    return -1;
                out.validity = validity;
                return p + 2 + (VALIDITY_WORDS[w]?.length ?? 0);
            }
            case F_RESULT: {
                const r = wordAt(b, p, end, RESULT_WORDS);
                if (r < 0)
                    return -1;
                out.result = r;
                return p + 2 + (RESULT_WORDS[r]?.length ?? 0);
            }
            case F_REVIEW_REVISION: {
                const q = this.count(b, p, end);
                if (q >= 0)
                    out.reviewRevision = this.num;
                return q;
            }
            case F_PASSES:
            case F_FAILS:
            case F_INFRA_ERRORS:
            case F_MISSING: {
                const q = this.count(b, p, end);
                if (q < 0)
                    return -1;
                const v = this.num;
                if (field === F_PASSES)
                    out.passes = v;
                else if (field === F_FAILS)
                    out.fails = v;
                else if (field === F_INFRA_ERRORS)
                    out.infraErrors = v;
                else
                    out.missing = v;
                return q;
            }
            case F_ATTEMPT: {
                const q = c === QUOTE ? this.id(b, p, end, read_limits/* MAX_ID_LENGTH */.Qx, false) : this.count(b, p, end);
                if (q < 0)
                    return -1;
                out.attempt = c === QUOTE ? this.text : this.num;
                this.attemptGiven = true;
                return q;
            }
            case F_EVIDENCE:
                return this.evidence(b, p, end, c, out);
            default:
                return -1;
        }
    }
    /** An integer >= 0 of at most 15 digits (always safe) at `p`, into `num`: the position after
     * it, or -1 to give up. */
    count(b, p, end) {
        const start = p;
        const first = b[p] ?? 0;
        let v = 0;
        if (first === ZERO) {
            p++;
        }
        else if (first > ZERO && first <= NINE) {
            while (p < end) {
                const d = b[p] ?? 0;
                if (!isDigit(d))
                    break;
                v = v * 10 + (d - ZERO);
                p++;
            }
            if (p - start > 15)
                return -1;
        }
        else {
            return -1;
        }
        // A fraction or an exponent may still make an integer (1.0, 1e2): JSON.parse decides.
        const after = p < end ? b[p] : -1;
        if (after === 0x2e || after === 0x65 || after === 0x45)
            return -1;
        this.num = v;
        return p;
    }
    /**
     * An identifier's string at `p`, into `text`: non-empty (unless `allowEmpty`), at most
     * `maxLength` UTF-16 code units, no control character (stringEnd refuses C0, DEL and C1
     * bytes). Returns the position after its closing quote, or -1.
     */
    id(b, p, end, maxLength, allowEmpty) {
        if (b[p] !== QUOTE)
            return -1;
        const begin = p + 1;
        const close = this.stringEnd(b, begin, end);
        if (close < 0 || (close === begin && !allowEmpty))
            return -1;
        const n = close - begin;
        if (this.ascii) {
            if (n > maxLength)
                return -1;
            this.text = slice(b, begin, close, true);
            return close + 1;
        }
        // UTF-8 never takes fewer bytes than UTF-16 code units: only a long one needs its length.
        const s = slice(b, begin, close, false);
        if (s.length > maxLength)
            return -1;
        this.text = s;
        return close + 1;
    }
    /** A field that repeats in runs (see RepeatCache), into `text`; as `id`. */
    repeated(b, p, end, cache) {
        if (b[p] !== QUOTE)
            return -1;
        const begin = p + 1;
        const n0 = cache.length;
        const close = begin + n0;
        if (n0 > 0 && close < end && b[close] === QUOTE) {
            // The same bytes as a value already read: the same valid id.
            const at = this.base + begin;
            const v = cache.slot >= 0
                ? this.repeats.at(cache.slot, this.view, at, n0)
                : sameBytes(this.view, at, cache.view, 0, n0)
                    ? cache.value
                    : undefined;
            if (v !== undefined) {
                this.text = v;
                return close + 1;
            }
        }
        const q = this.stringEnd(b, begin, end);
        if (q <= begin)
            return -1;
        const ascii = this.ascii;
        const n = q - begin;
        if (n > read_limits/* MAX_ID_LENGTH */.Qx && (ascii || slice(b, begin, q, false).length > read_limits/* MAX_ID_LENGTH */.Qx))
            return -1;
        const short = n <= SLOT_BYTES;
        const v = short
            ? this.repeats.get(b, this.view, this.base + begin, begin, q, ascii)
            : slice(b, begin, q, ascii);
        cache.set(b, begin, q, v, short ? this.repeats.slot : -1);
        this.text = v;
        return q + 1;
    }
    /** `evidence` at `p` (first byte `c`): a string or an array of strings, into `out`. */
    evidence(b, p, end, c, out) {
        if (c === QUOTE) {
            const q = this.id(b, p, end, read_limits/* MAX_EVIDENCE_LENGTH */.Yb, true);
            if (q >= 0)
                out.evidence = this.text;
            return q;
        }
        if (c !== LBRACKET)
            return -1;
        p = skipSpace(b, p + 1, end);
        if (p >= end)
            return -1;
        const items = this.items;
        let n = 0;
        // Whether the items so far may be packed: ASCII, non-empty, and within the cap. An ASCII
        // item's string is made only once it is known the list is not packed (spans say where).
        let packable = this.packEvidence;
        if (b[p] === RBRACKET) {
            p++;
        }
        else {
            for (;;) {
                // (What id() checks of an item, with its string left for later when ASCII.)
                if (b[p] !== QUOTE)
                    return -1;
                const begin = p + 1;
                const close = this.stringEnd(b, begin, end);
                if (close < 0)
                    return -1;
                if (this.ascii) {
                    if (close - begin > read_limits/* MAX_EVIDENCE_LENGTH */.Yb)
                        return -1;
                    if (close === begin)
                        packable = false;
                    if (n < read_limits/* MAX_EVIDENCE_PER_TASK */.zd) {
                        this.spans[2 * n] = begin;
                        this.spans[2 * n + 1] = close;
                    }
                    else {
                        packable = false;
                    }
                    items[n++] = packable ? "" : slice(b, begin, close, true);
                }
                else {
                    const s = slice(b, begin, close, false);
                    if (s.length > read_limits/* MAX_EVIDENCE_LENGTH */.Yb)
                        return -1;
                    packable = false;
                    items[n++] = s;
                }
                p = skipSpace(b, close + 1, end);
                if (p >= end)
                    return -1;
                const next = b[p];
                p++;
                if (next === RBRACKET)
                    break;
                if (next !== COMMA)
                    return -1;
                p = skipSpace(b, p, end);
                if (p >= end)
                    return -1;
            }
        }
        if (packable && n >= 2 && this.distinctSpans(n)) {
            out.packedEvidence = this.packSpans(n);
            out.packedItems = n;
            return p;
        }
        if (this.packEvidence)
            this.unpackSpans(b, n);
        // An array of exactly n items, reused for that length (no array per row).
        let list = this.evidenceArrays[n];
        if (list === undefined) {
            list = items.slice(0, n);
        }
        else {
            for (let i = 0; i < n; i++)
                list[i] = items[i] ?? "";
        }
        out.evidence = list;
        return p;
    }
    /**
     * Makes the strings of the ASCII items left for later (evidence): each stands as "" in items
     * with its span non-empty (an item made at once is non-empty, or empty in the line too).
     */
    unpackSpans(b, n) {
        const items = this.items;
        const spans = this.spans;
        for (let k = 0; k < n && k < read_limits/* MAX_EVIDENCE_PER_TASK */.zd; k++) {
            if (items[k] === "") {
                const begin = spans[2 * k] ?? 0;
                const close = spans[2 * k + 1] ?? 0;
                if (close > begin)
                    items[k] = slice(b, begin, close, true);
            }
        }
    }
    /** Whether the n items of spans are pairwise different (compared by their bytes). */
    distinctSpans(n) {
        const spans = this.spans;
        const v = this.view;
        const base = this.base;
        for (let k = 1; k < n; k++) {
            const bk = spans[2 * k] ?? 0;
            const lk = (spans[2 * k + 1] ?? 0) - bk;
            for (let j = 0; j < k; j++) {
                const bj = spans[2 * j] ?? 0;
                if ((spans[2 * j + 1] ?? 0) - bj === lk && sameBytes(v, base + bk, v, base + bj, lk))
                    return false;
            }
        }
        return true;
    }
    /** The n items of spans joined by the packed list's separator, as one string. */
    packSpans(n) {
        const spans = this.spans;
        let size = n - 1;
        for (let k = 0; k < n; k++)
            size += (spans[2 * k + 1] ?? 0) - (spans[2 * k] ?? 0);
        // (+3: the words copied below may write up to 3 bytes past the last item.)
        if (size + 3 > this.packing.length) {
            this.packing = Buffer.alloc(Math.max(size + 3, 2 * this.packing.length));
            this.packingView = new DataView(this.packing.buffer, this.packing.byteOffset, this.packing.length);
        }
        const out = this.packing;
        const ov = this.packingView;
        const v = this.view;
        const base = this.base;
        let w = 0;
        for (let k = 0; k < n; k++) {
            if (k > 0)
                out[w++] = SEPARATOR_CODE;
            const begin = spans[2 * k] ?? 0;
            const length = (spans[2 * k + 1] ?? 0) - begin;
            // Four bytes at a time (the last word may take up to 3 bytes after the item: the line
            // goes on with its closing quote at least, and the next item or separator overwrites them).
            for (let j = 0; j < length; j += 4)
                ov.setInt32(w + j, v.getInt32(base + begin + j, true), true);
            w += length;
        }
        return slice(out, 0, w, true);
    }
}

// EXTERNAL MODULE: ./src/read/builder/builder-columns.ts
var builder_columns = __nccwpck_require__(77);
;// CONCATENATED MODULE: ./src/core/model.ts
/**
 * Domain types shared by the reader, the statistics, the decision and the report.
 * SPEC §1.1 (export rows), §1.2 (reviews) and §2 (sets).
 */
const model_VALIDITIES = ["unreviewed", "valid", "broken", "disputed"];
/** The index of a validity in VALIDITIES (the readers' label columns store it as a small number). */
function validityCode(v) {
    return v === "unreviewed" ? 0 : v === "valid" ? 1 : v === "broken" ? 2 : 3;
}
const RESULTS = (/* unused pure expression or super */ null && (["pass", "fail", "infra_error", "missing"]));
/**
 * Placeholder revisions. A harness revision that is `unknown` or begins with `unknown:` (the
 * letters in any case) is reserved to say "no revision is known": the importers write
 * `unknown:<kind>` when the source names no harness. A placeholder is a label, not a revision, so
 * it never satisfies "same harness revision" and fails "real harness revisions" (docs/spec.md §4.2
 * "Placeholder harness revisions").
 */
const PLACEHOLDER_REVISION_PREFIX = "unknown:";
function isPlaceholderRevision(revision) {
    return /^unknown(?::|$)/i.test(revision);
}
/** Locale-independent string order (UTF-16 code units), so outputs do not depend on the machine's locale. */
function compareCodeUnits(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
/** A TaskTable over records already made. */
class RecordTable {
    records;
    constructor(records) {
        this.records = records;
    }
    get length() {
        return this.records.length;
    }
    record(i) {
        const t = this.records[i];
        if (t === undefined)
            throw new Error(`TaskTable: no task ${i} (of ${this.records.length})`);
        return t;
    }
    datasetRevision(i) {
        return this.record(i).datasetRevision;
    }
    taskId(i) {
        return this.record(i).taskId;
    }
    validity(i) {
        return this.record(i).validity;
    }
    reviewRevision(i) {
        return this.record(i).reviewRevision;
    }
    cluster(i) {
        return this.record(i).cluster;
    }
    baseline(i) {
        return this.record(i).baseline;
    }
    candidate(i) {
        return this.record(i).candidate;
    }
    evidence(i) {
        return this.record(i).evidence;
    }
    labelCount(i) {
        return this.record(i).history.length;
    }
    lastLabelRevision(i) {
        const h = this.record(i).history;
        return h[h.length - 1]?.revision ?? -1;
    }
    history(i) {
        return this.record(i).history;
    }
    eventRevision(i, k) {
        return this.event(this.history(i), i, k).revision;
    }
    eventValidity(i, k) {
        return this.event(this.history(i), i, k).validity;
    }
    eventFile(i, k) {
        return this.event(this.history(i), i, k).source.file;
    }
    eventLine(i, k) {
        return this.event(this.history(i), i, k).source.line;
    }
    event(history, i, k) {
        const e = history[k];
        if (e === undefined)
            throw new Error(`TaskTable: task ${i} has no event ${k}`);
        return e;
    }
}
/** Records as a TaskTable (they are not copied: never modify them). */
function recordTable(records) {
    return new RecordTable(records);
}
/** A table with some tasks' records replaced (task index → record); the others read through. */
class OverlayTable {
    base;
    replaced;
    constructor(base, replaced) {
        this.base = base;
        this.replaced = replaced;
    }
    get length() {
        return this.base.length;
    }
    record(i) {
        return this.replaced.get(i) ?? this.base.record(i);
    }
    datasetRevision(i) {
        return this.replaced.get(i)?.datasetRevision ?? this.base.datasetRevision(i);
    }
    taskId(i) {
        return this.replaced.get(i)?.taskId ?? this.base.taskId(i);
    }
    validity(i) {
        return this.replaced.get(i)?.validity ?? this.base.validity(i);
    }
    reviewRevision(i) {
        return this.replaced.get(i)?.reviewRevision ?? this.base.reviewRevision(i);
    }
    cluster(i) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.cluster(i) : r.cluster;
    }
    baseline(i) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.baseline(i) : r.baseline;
    }
    candidate(i) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.candidate(i) : r.candidate;
    }
    evidence(i) {
        return this.replaced.get(i)?.evidence ?? this.base.evidence(i);
    }
    labelCount(i) {
        return this.replaced.get(i)?.history.length ?? this.base.labelCount(i);
    }
    lastLabelRevision(i) {
        const r = this.replaced.get(i);
        if (r === undefined)
            return this.base.lastLabelRevision(i);
        return r.history[r.history.length - 1]?.revision ?? -1;
    }
    history(i) {
        return this.replaced.get(i)?.history ?? this.base.history(i);
    }
    eventRevision(i, k) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.eventRevision(i, k) : recordTable([r]).eventRevision(0, k);
    }
    eventValidity(i, k) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.eventValidity(i, k) : recordTable([r]).eventValidity(0, k);
    }
    eventFile(i, k) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.eventFile(i, k) : recordTable([r]).eventFile(0, k);
    }
    eventLine(i, k) {
        const r = this.replaced.get(i);
        return r === undefined ? this.base.eventLine(i, k) : recordTable([r]).eventLine(0, k);
    }
}
/**
 * The same tasks with some records replaced (e.g. relabelled): only those are held, so a view of a
 * 10⁶-task Dataset that changes a few labels costs what it changes.
 */
function withReplacedRecords(table, replaced) {
    return replaced.size === 0 ? table : new OverlayTable(table, replaced);
}
/** Every task of a table as a record, in table order. */
function tableRecords(table) {
    const out = [];
    for (let i = 0; i < table.length; i++)
        out.push(table.record(i));
    return out;
}

;// CONCATENATED MODULE: ./src/read/builder/task-table.ts


/** Packed sources: fileIndex * LINE_RADIX + line (as the builder packs them). */
const LINE_RADIX = 2 ** 32;
/** The evidence of a task or event without any (shared: records are never modified). */
const NO_EVIDENCE = Object.freeze([]);
/**
 * A number read from a Float64Array, as a small integer when it is one. A record's field that
 * first receives a boxed double (what a Float64Array read gives before the code is optimised)
 * boxes every later value too: 16 bytes more a field of every record.
 */
function small(x) {
    const k = x | 0;
    return k === x ? k : x;
}
/**
 * Filled by the DatasetBuilder (`setTask` and `setEvent`, in any order: it fills in its own task
 * order, reading its columns in order), then read. Each task's run of events is known beforehand.
 */
class ColumnTaskTable {
    strings;
    revisionNames;
    files;
    length;
    /** Task index → the builder's task number (for its strings). */
    order;
    /** Task index → its dataset revision's index in `revisionNames`. */
    revisionIndex;
    validityCode;
    reviewRevisions;
    baselines;
    candidates;
    /** Task i's events are eventStart[i] … eventStart[i + 1] - 1. */
    eventStart;
    eventRevisions;
    eventValidities;
    eventSource;
    /** Event index → its evidence when it is not the task's list. */
    eventEvidence = new Map();
    /** Event index → reviewer and note, when either was given. */
    eventMeta = new Map();
    filled = 0;
    constructor(size, 
    /** Task i's events will be eventStart[i] … eventStart[i + 1] - 1 (size + 1 entries; kept). */
    eventStart, strings, revisionNames, files) {
        this.strings = strings;
        this.revisionNames = revisionNames;
        this.files = files;
        this.length = size;
        this.order = new Uint32Array(size);
        this.revisionIndex = new Uint32Array(size);
        this.validityCode = new Uint8Array(size);
        this.reviewRevisions = new Float64Array(size);
        this.baselines = new Array(size);
        this.candidates = new Array(size);
        if (eventStart.length !== size + 1)
            throw new Error("ColumnTaskTable: eventStart is not one a task and one more");
        this.eventStart = eventStart;
        const events = eventStart[size] ?? 0;
        this.eventRevisions = new Float64Array(events);
        this.eventValidities = new Uint8Array(events);
        this.eventSource = new Float64Array(events);
    }
    /** Task i (in dataset order); its events go to eventStart[i] … with `setEvent`. */
    setTask(i, builderTask, revisionIndex, validityCode, reviewRevision, baseline, candidate) {
        this.filled++;
        this.order[i] = builderTask;
        this.revisionIndex[i] = revisionIndex;
        this.validityCode[i] = validityCode;
        this.reviewRevisions[i] = reviewRevision;
        this.baselines[i] = baseline;
        this.candidates[i] = candidate;
    }
    /** Event e (a task's events in history order). `evidence`: its list when not the task's. */
    setEvent(e, revision, validityCode, source, evidence, meta) {
        this.eventRevisions[e] = revision;
        this.eventValidities[e] = validityCode;
        this.eventSource[e] = source;
        if (evidence !== undefined)
            this.eventEvidence.set(e, evidence);
        if (meta !== undefined)
            this.eventMeta.set(e, meta);
    }
    /** Whether every task was added. */
    complete() {
        return this.filled === this.length;
    }
    at(i) {
        if (!(i >= 0 && i < this.filled))
            throw new Error(`TaskTable: no task ${i} (of ${this.filled})`);
        return this.order[i];
    }
    datasetRevision(i) {
        this.at(i);
        return this.revisionNames[this.revisionIndex[i]] ?? "";
    }
    taskId(i) {
        return this.strings.taskIds[this.at(i)] ?? "";
    }
    validity(i) {
        this.at(i);
        return model_VALIDITIES[this.validityCode[i]] ?? "unreviewed";
    }
    reviewRevision(i) {
        this.at(i);
        return small(this.reviewRevisions[i]);
    }
    cluster(i) {
        return this.strings.clusters[this.at(i)];
    }
    baseline(i) {
        this.at(i);
        return this.baselines[i];
    }
    candidate(i) {
        this.at(i);
        return this.candidates[i];
    }
    /** (A new array on each call.) */
    evidence(i) {
        return unpack(this.strings.evidence[this.at(i)]) ?? NO_EVIDENCE;
    }
    labelCount(i) {
        this.at(i);
        return this.eventStart[i + 1] - this.eventStart[i];
    }
    lastLabelRevision(i) {
        this.at(i);
        const end = this.eventStart[i + 1];
        return end > this.eventStart[i] ? small(this.eventRevisions[end - 1]) : -1;
    }
    eventRevision(i, k) {
        return small(this.eventRevisions[this.eventAt(i, k)]);
    }
    eventValidity(i, k) {
        return model_VALIDITIES[this.eventValidities[this.eventAt(i, k)]] ?? "unreviewed";
    }
    eventFile(i, k) {
        return this.files[Math.floor(this.eventSource[this.eventAt(i, k)] / LINE_RADIX)] ?? "?";
    }
    eventLine(i, k) {
        return small(this.eventSource[this.eventAt(i, k)] % LINE_RADIX);
    }
    eventAt(i, k) {
        this.at(i);
        const e = this.eventStart[i] + k;
        if (!(k >= 0 && e < this.eventStart[i + 1]))
            throw new Error(`TaskTable: task ${i} has no event ${k}`);
        return e;
    }
    history(i) {
        const taskEvidence = this.evidence(i);
        const out = [];
        for (let e = this.eventStart[i]; e < this.eventStart[i + 1]; e++) {
            out.push(reviewEvent(small(this.eventRevisions[e]), model_VALIDITIES[this.eventValidities[e]] ?? "unreviewed", this.sourceOf(this.eventSource[e]), this.eventEvidence.get(e) ?? taskEvidence, this.eventMeta.get(e)));
        }
        return out;
    }
    sourceOf(src) {
        return { file: this.files[Math.floor(src / LINE_RADIX)] ?? "?", line: small(src % LINE_RADIX) };
    }
    record(i) {
        const history = this.history(i);
        const datasetRevision = this.datasetRevision(i);
        const taskId = this.taskId(i);
        const validity = this.validity(i);
        const reviewRevision = this.reviewRevision(i);
        const evidence = this.evidence(i);
        const cluster = this.cluster(i);
        const b = this.baselines[i];
        const c = this.candidates[i];
        // The keys in the order the reader always gave them.
        const out = { datasetRevision, taskId, validity, reviewRevision, history, evidence };
        if (cluster !== undefined)
            out.cluster = cluster;
        if (b !== undefined)
            out.baseline = b;
        if (c !== undefined)
            out.candidate = c;
        return out;
    }
}
/** A history event (reviewer and note only when given, after the evidence). */
function reviewEvent(revision, validity, source, evidence, meta) {
    if (meta === undefined || (meta.reviewer === undefined && meta.note === undefined)) {
        return { revision, validity, source, evidence };
    }
    const event = { revision, validity, source, evidence };
    if (meta.reviewer !== undefined)
        event.reviewer = meta.reviewer;
    if (meta.note !== undefined)
        event.note = meta.note;
    return event;
}

;// CONCATENATED MODULE: ./src/read/builder/builder-state.ts
/**
 * What a DatasetBuilder holds, shared by its parts: the tasks (the column store,
 * builder-columns.ts) and how a row finds its task, the strings kept once, the models seen and
 * the compared models' totals, what is held against the caps (InputLimits), and the problems
 * found so far. The labels (label-history.ts) and the row path (dataset-builder.ts) are the layers
 * built on it (one object: see label-history.ts); the merge of a range's state (range-merge.ts)
 * and the Dataset made at the end (dataset-finish.ts) work on it; nothing outside
 * src/read/builder does.
 *
 * Sources (file, line) are packed into one safe integer: fileIndex * 2^32 + line.
 */




/** Harness-kind entries: packed source * 2 + kind. */
const KIND_ATTEMPTS = 0;
const KIND_AGGREGATED = 1;
/** Keeps the first problems in full and counts the rest. */
class ProblemList {
    items = [];
    total = 0;
    add(p) {
        this.total++;
        if (this.items.length < 20)
            this.items.push(p);
    }
    /** Adds another list's problems after these (as if each had been added here). */
    append(other) {
        for (const p of other.items)
            this.add(p);
        this.total += other.total - other.items.length;
    }
}
function newModelState() {
    return {
        harnessRevisions: new Set(),
        datasetRevisions: new Set(),
        duplicateRows: 0,
        attempts: 0,
        lastHarness: undefined,
        lastRevision: undefined,
    };
}
/**
 * The rank's models in one read (a K-model read, src/read/read-models.ts): each keeps its own
 * columns and totals exactly as the baseline and the candidate do, and every task one of them ran
 * is in the universe. Given ids (`--models`) are ranked in that order; without them (`every`)
 * each model is ranked from its first row on, in the order first seen. The counts and summaries
 * are filled by finish (dataset-finish.ts), by task of the Dataset's table.
 */
class RankedModels {
    cols;
    ids = [];
    byId = new Map();
    states = [];
    /** counts[k][u]: ranked model k's attempts on the table's task u (after finish). */
    counts = [];
    /** Every model of the export is ranked (no ids given). */
    every;
    constructor(given, 
    /** The builder's columns: a ranked model's are added there. */
    cols) {
        this.cols = cols;
        this.every = given === null;
        for (const id of given ?? [])
            this.add(id);
    }
    /** Ranks one more model; its index. */
    add(id) {
        const k = this.ids.length;
        this.ids.push(id);
        this.byId.set(id, k);
        this.states.push(newModelState());
        this.cols.addRanked();
        return k;
    }
}
class BuilderState {
    baseline;
    candidate;
    fileNames;
    /** dataset_revision → its index. */
    revisions = new Map();
    /** The same, by revision index. */
    revisionList = [];
    cols = new builder_columns/* TaskColumns */.b2();
    /** Task numbers by (revision index, task_id). */
    index = new builder_columns/* TaskIndex */.YH();
    /** Cluster and harness strings repeat across tasks: keep one copy of each. */
    strings = new Map();
    /** The harness revision interned last (rows of a harness revision come in runs). */
    lastHarness = undefined;
    models = new Set();
    baselineState = newModelState();
    candidateState = newModelState();
    lineProblems = new ProblemList();
    limits;
    /** A cap was passed (reported): later lines are not held. */
    stopped = false;
    /**
     * This read is the rank's (ReadOptions.pairOfMany): the two models need not appear (the rank
     * checks its models against modelsPresent), and a reviews file that labels none of the read's
     * tasks is named in the Dataset, not refused (the rank refuses it in its own words).
     */
    pairOfMany = false;
    /** The rank's models when this is a K-model read (set before the first row), else undefined. */
    ranked = undefined;
    attemptIds = 0;
    /** Blocks of every AttemptIds of this builder (freed with it). */
    attemptPool = new builder_columns/* AttemptPool */.qI();
    /** Per reviews file (by file index): rows read, rows that labelled a compared task, rows by dataset revision. */
    reviewFiles = new Map();
    heldChars = 0;
    constructor(baseline, candidate, 
    /** Display names of the input files, by file index. */
    fileNames, limits = {}) {
        this.baseline = baseline;
        this.candidate = candidate;
        this.fileNames = fileNames;
        this.limits = { ...read_limits/* DEFAULT_INPUT_LIMITS */.CL, ...limits };
    }
    /** Reports a passed cap at `src` and stops holding what later lines bring. */
    capPassed(src, message) {
        this.lineProblem(src, undefined, `${message}; the rest of the input is not read`);
        this.stopped = true;
    }
    /** After each line: reports when the text or attempt ids held have passed their caps. */
    checkHeld(src) {
        if (this.stopped)
            return;
        if (this.heldChars > this.limits.maxHeldChars) {
            this.capPassed(src, `the input holds more than ${this.limits.maxHeldChars} characters of distinct ids, revisions, ` +
                `clusters, attempt ids, evidence, reviewers and notes (the limit, which bounds the memory used)`);
        }
        else if (this.attemptIds > this.limits.maxAttemptIds) {
            this.capPassed(src, `${this.ranked === undefined ? "the baseline and the candidate" : "the ranked models"} have more than ` +
                `${this.limits.maxAttemptIds} distinct attempt ids ` +
                `(the limit, which bounds the memory used to fold repeated attempts); give such exports as ` +
                `pre-aggregated rows (passes, fails, infra_errors, missing)`);
        }
    }
    /** An attempt id kept to recognise its repeats. */
    holdAttempt(attempt) {
        if (attempt !== undefined) {
            this.attemptIds++;
            if (typeof attempt === "string")
                this.heldChars += attempt.length;
        }
        return attempt;
    }
    src(fileIndex, line) {
        return fileIndex * LINE_RADIX + line;
    }
    where(src) {
        const file = this.fileNames[Math.floor(src / LINE_RADIX)] ?? "?";
        return `${file}:${src % LINE_RADIX}`;
    }
    locationOf(src) {
        return { file: this.fileNames[Math.floor(src / LINE_RADIX)] ?? "?", line: small(src % LINE_RADIX) };
    }
    /** A problem of a whole file (line undefined) or of one line, reported by the line streamer. */
    fileProblem(fileIndex, line, message) {
        const file = this.fileNames[fileIndex] ?? "?";
        this.lineProblems.add({ location: line === undefined ? { file } : { file, line }, message });
    }
    lineProblem(src, field, message) {
        const location = this.locationOf(src);
        this.lineProblems.add(field === undefined ? { location, message } : { location, field, message });
    }
    intern(value) {
        const known = this.strings.get(value);
        if (known !== undefined)
            return known;
        this.strings.set(value, value);
        this.heldChars += value.length;
        return value;
    }
    internHarness(value) {
        let held = this.lastHarness;
        if (value !== held) {
            held = this.intern(value);
            this.lastHarness = held;
        }
        return held;
    }
    revisionOf(i) {
        return this.revisionList[this.cols.revision[i] ?? 0]?.name ?? "";
    }
    /** Whether the reviews can matter: call after all results files. */
    inUniverse(i) {
        return ((this.cols.flags[i] ?? 0) & (builder_columns/* F_BASELINE */.rr | builder_columns/* F_CANDIDATE */.Nt | builder_columns/* F_RANKED */.l_)) !== 0;
    }
    /** No problem reported and no cap passed so far (what a read in ranges requires). */
    healthy() {
        return !this.stopped && this.lineProblems.total === 0;
    }
    /** How many tasks this builder holds (snapshot's `to`). */
    taskCount() {
        return this.cols.count;
    }
    /** The compared models' attempt ids held to recognise repeats (what a range's merge copies). */
    heldAttemptIds() {
        return this.attemptIds;
    }
    /** Every model_config seen, sorted. */
    modelsPresent() {
        return [...this.models].sort(compareCodeUnits);
    }
    /** The dataset revision named so, made (as a row's would be) when new. */
    revisionNamed(revision) {
        const known = this.revisions.get(revision);
        if (known !== undefined)
            return known;
        const name = this.intern(revision);
        const rev = { name, index: this.revisionList.length };
        this.revisions.set(name, rev);
        this.revisionList.push(rev);
        return rev;
    }
    holdAll(ids) {
        const held = ids.held();
        this.attemptIds += held.ids;
        this.heldChars += held.chars;
    }
}

;// CONCATENATED MODULE: ./src/core/errors.ts
/**
 * User mistakes (bad export, bad policy, unknown model id, bad flag) are a distinct class so the
 * single error boundary at each entry point can print them as one clear message with exit status
 * 3, and treat anything else as a bug. A verdict is never an error: accept/reject/unresolved are
 * results.
 */
/** How many problems an error lists before it only counts the rest (SPEC §1.1). */
const MAX_LISTED_PROBLEMS = 20;
function formatLocation(loc) {
    let out = loc.file;
    if (loc.line !== undefined)
        out += `:${loc.line}`;
    if (loc.line !== undefined && loc.column !== undefined)
        out += `:${loc.column}`;
    return out;
}
function formatProblem(p) {
    const where = p.location ? `${formatLocation(p.location)}: ` : "";
    const field = p.field !== undefined ? `field "${p.field}": ` : "";
    return `${where}${field}${p.message}`;
}
/** Bad input given by the user: exit status 3, one message, no stack trace. */
class InputError extends Error {
    name = "InputError";
    /** The problems listed (at most MAX_LISTED_PROBLEMS). */
    problems;
    /** The total number of problems found, which may exceed problems.length. */
    total;
    constructor(summary, problems = [], total = problems.length) {
        const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
        const lines = [summary, ...listed.map((p) => `  ${formatProblem(p)}`)];
        if (total > listed.length)
            lines.push(`  … and ${total - listed.length} more (${total} in all)`);
        super(lines.join("\n"));
        this.problems = listed;
        this.total = total;
    }
}
/**
 * The policy stops the run by itself (e.g. expired with `on_expired: fail`). Still a user-side
 * condition with exit status 3, but named apart so callers can say "policy", not "input".
 */
class PolicyError extends (/* unused pure expression or super */ null && (InputError)) {
    name = "PolicyError";
}
/**
 * An InputError as one line: its first problem (with file:line:column) and how many more there
 * are, or its summary when it lists none. Used where a bad file is reported, not thrown (a PR's
 * head policy, an old version of the policy in its history).
 */
function errorLine(err) {
    const first = err.problems[0];
    const more = err.total - 1;
    const text = first ? formatProblem(first) : (err.message.split("\n")[0] ?? "invalid input");
    return more > 0 ? `${text} (and ${more} more problem${more === 1 ? "" : "s"})` : text;
}

;// CONCATENATED MODULE: ./src/core/unicode-near-match.ts
/**
 * An id given on the command line (or as an action input) is matched against the data exactly:
 * "café" in NFC (U+00E9) and in NFD (U+0065 U+0301) are different ids, and the gate never
 * guesses which one was meant. But both print identically, so an error that only says "not
 * found" leaves the user staring at two equal-looking strings. When the given id matches a
 * present one after folding what cannot be seen, the error says so and shows the code points
 * where they differ.
 *
 * Folded: Unicode normalisation (NFKC, which covers NFC/NFD and compatibility forms such as
 * full-width letters), invisible format characters (zero-width space and joiners, BOM, soft
 * hyphen, bidi marks), every kind of space (no-break, thin, ideographic…) to one space, leading
 * and trailing space, Unicode dashes and minus to "-", and the Cyrillic and Greek letters that
 * look like Latin ones.
 */

/** Cyrillic and Greek letters drawn like Latin ones (position by position), and Unicode dashes. */
const LOOKALIKE_FROM = "аеорсухіјѕԁһАВЕКМНОРСТХІЈЅονΑΒΕΖΗΙΚΜΝΟΡΤΥΧ";
const LOOKALIKE_TO = "aeopcyxijsdhABEKMHOPCTXIJSovABEZHIKMNOPTYX";
const DASHES = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g;
/** What folds away or together; exported for the tests. */
function foldInvisible(s) {
    return s
        .normalize("NFKC")
        .replace(/\p{Cf}/gu, "")
        .replace(/[\p{White_Space}]+/gu, " ")
        .trim()
        .replace(DASHES, "-")
        .replace(/./gu, (c) => {
        const i = LOOKALIKE_FROM.indexOf(c);
        return i < 0 ? c : (LOOKALIKE_TO[i] ?? c);
    });
}
/** Code points as U+XXXX, separated by spaces; "nothing" for none. */
function codePoints(s) {
    const out = [];
    for (const c of s)
        out.push(`U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`);
    return out.length === 0 ? "nothing" : out.join(" ");
}
/** The differing middle of two strings (common prefix and suffix taken off, by code point). */
function difference(a, b) {
    const x = Array.from(a); // code points, not graphemes: the message counts code points
    const y = Array.from(b);
    let start = 0;
    while (start < x.length && start < y.length && x[start] === y[start])
        start++;
    let end = 0;
    while (end < x.length - start && end < y.length - start && x[x.length - 1 - end] === y[y.length - 1 - end])
        end++;
    return {
        at: start + 1,
        a: x.slice(start, x.length - end).join(""),
        b: y.slice(start, y.length - end).join(""),
    };
}
function kindOf(given, present) {
    if (given.normalize("NFC") === present.normalize("NFC"))
        return "another Unicode normalisation form (NFC vs NFD)";
    if (given.normalize("NFKC") === present.normalize("NFKC"))
        return "Unicode compatibility forms (NFKC)";
    return "invisible characters, look-alike spaces, dashes or letters";
}
/** Present ids compared at most (the check is linear in their number). */
const MAX_COMPARED = 100_000;
const ID_WORDS = {
    found: "is present",
    given: "the given id",
    other: "the data",
    fix: "give the data's id (or fix the data)",
};
/**
 * "" when no present id looks the same as `given`; else a clause (starting "; ") naming the
 * present id that does and the code points where they differ, to append to a "not found" error.
 */
function unicodeNearMatch(given, present, words = ID_WORDS) {
    const key = foldInvisible(given);
    let n = 0;
    for (const p of present) {
        if (++n > MAX_COMPARED)
            break;
        if (p === given || foldInvisible(p) !== key)
            continue;
        const d = difference(given, p);
        return (`; but ${quote(p)} ${words.found} and differs from it only by ${kindOf(given, p)}: from character ${d.at}, ` +
            `${words.given} has ${codePoints(d.a)} where ${words.other} has ${codePoints(d.b)}. Ids are compared exactly: ` +
            words.fix);
    }
    return "";
}

;// CONCATENATED MODULE: ./src/read/builder/builder-messages.ts
/**
 * The words of the builder's problems that need more than a line: a reviews file that labels no
 * compared task, a compared model_config the export does not have, a results file without rows.
 */



/** Revisions are shown whole up to this length, so that one can be copied into --dataset-revision. */
const REVISION_SHOWN_LENGTH = 200;
/** At most this many revisions named in a message, then "and N more". */
const REVISIONS_NAMED = 3;
function revisionList(revisions, more = false) {
    const shown = revisions
        .slice(0, REVISIONS_NAMED)
        .map((r) => quoteUpTo(r, REVISION_SHOWN_LENGTH))
        .join(", ");
    const rest = revisions.length - REVISIONS_NAMED;
    return rest > 0 || more ? `${shown} and ${rest > 0 ? `${rest} ` : ""}more` : shown || "none";
}
/** A reviews file that labels no compared task: what it names, what the tasks have, what to do. */
function noMatchMessage(st, unmatched, compared) {
    const named = [...st.byRevision.keys()].sort(compareCodeUnits);
    const what = unmatched.length === named.length
        ? `its rows are under dataset revision${named.length === 1 ? "" : "s"} ${revisionList(named, st.otherRows > 0)}, ` +
            `and the compared tasks under ${revisionList(compared)}`
        : `its rows under dataset revision${named.length === 1 ? "" : "s"} ${revisionList(named, st.otherRows > 0)} name ` +
            `none of the tasks the baseline or the candidate ran (the compared tasks are under ${revisionList(compared)})`;
    return (`none of its ${plural(st.rows, "review row", "review rows")} labels a task the baseline or the candidate ran: ${what}. ` +
        `A review applies to a task only under the same dataset_revision: re-import the reviews with ` +
        `--dataset-revision set to the results' revision, or with the same --tasks list as the results ` +
        `(model-gate import verified-annotations without --tasks computes the revision from the sheet's own ids)`);
}
function plural(n, one, many) {
    return `${n} ${n === 1 ? one : many}`;
}
function unknownModelMessage(role, id, present) {
    if (present.length === 0) {
        return `the ${role} model_config ${quote(id)} does not appear in the export: the export has no valid rows`;
    }
    const shown = present.slice(0, read_limits/* MAX_LISTED_MODEL_IDS */.gR).map(quote).join(", ");
    const more = present.length > read_limits/* MAX_LISTED_MODEL_IDS */.gR ? `, … (${present.length} in all)` : "";
    return (`the ${role} model_config ${quote(id)} does not appear in the export; model_config ids present ` +
        `(${present.length}): ${shown}${more}`);
}
/** A results file read to its end without a row (named when a compared model is missing). */
function emptyResultsMessage(bytes) {
    return bytes === 0
        ? "the results file is empty (0 bytes): it holds no rows"
        : "the results file holds no rows: every line of it is blank";
}

;// CONCATENATED MODULE: ./src/read/builder/label-memo.ts
/**
 * What the label history remembers beside its state, for speed only: a row that repeats the
 * label and evidence of one already added to its task changes nothing, and these find such a row
 * without searching the task's lists.
 */


/**
 * Per task, the label (review_revision, validity) and evidence items of a result row already added
 * to it, the items as where they stand in the task's list (a run of `count` from `start`). Adding
 * that label and those items again changes nothing: the label exists, the task's list holds the
 * items (lists only grow at their end, so the run stays where it was), and so does the label's own
 * list (it took them then, or was full; a label's own list never equals the task's, or it would
 * share it: settle). So a row that repeats them skips addLabel: on evidence that differs per
 * (model, task), the rows of one (model, task) otherwise searched the task's list of every model's
 * items, and the label's, every time.
 */
class EvidenceMemo {
    /** revision * 4 + validity code + 1; 0: nothing remembered. */
    label = new Float64Array(0);
    /** Where the run starts in the task's packed list (a character offset). */
    start = new Uint32Array(0);
    count = new Uint8Array(0);
    set(i, revision, validity, start, count) {
        if (i >= this.label.length) {
            const size = Math.max(1024, 2 * i);
            const label = new Float64Array(size);
            label.set(this.label);
            this.label = label;
            const starts = new Uint32Array(size);
            starts.set(this.start);
            this.start = starts;
            const counts = new Uint8Array(size);
            counts.set(this.count);
            this.count = counts;
        }
        this.label[i] = revision * 4 + validityCode(validity) + 1;
        this.start[i] = start;
        this.count[i] = count;
    }
    /** Whether the row's label and evidence are those remembered for task i (compared item by item). */
    repeats(i, revision, validity, evidence, cols) {
        if (i >= this.label.length || this.label[i] !== revision * 4 + validityCode(validity) + 1)
            return false;
        const count = typeof evidence === "string" ? 1 : evidence.length;
        return this.count[i] === count && packedRunAt(cols.evidence[i], this.start[i] ?? 0, evidence);
    }
    /** repeats() of a row whose `count` items came packed (one run of whole items for packedRunAt). */
    repeatsPacked(i, revision, validity, packed, count, cols) {
        if (i >= this.label.length || this.label[i] !== revision * 4 + validityCode(validity) + 1)
            return false;
        return this.count[i] === count && packedRunAt(cols.evidence[i], this.start[i] ?? 0, packed);
    }
}
/** Evidence items a row may hold for LastAdded to remember them (longer lists are not). */
const LAST_ADDED_ITEMS = 4;
/**
 * The label and evidence of the last result row added to a task. A row of the same task with the
 * same label and the same items (the attempts of one model on one task usually come together)
 * changes nothing: adding a label and items is idempotent while nothing else touched the task,
 * and any other row added since is the last one instead (a row the memo skips changes nothing
 * either). Compared with `===` (the scanner's new strings: their characters, faster than reading
 * the packed list).
 */
class LastAdded {
    task = -1;
    revision = 0;
    validity = "unreviewed";
    /** NO_EVIDENCE_GIVEN, ONE_STRING (a string alone, in items[0]) or a list of `count` items. */
    shape = NO_EVIDENCE_GIVEN;
    count = 0;
    items = [];
    forget() {
        this.task = -1;
    }
    set(i, revision, validity, evidence) {
        if (evidence !== undefined && typeof evidence !== "string" && evidence.length > LAST_ADDED_ITEMS) {
            this.task = -1;
            return;
        }
        this.task = i;
        this.revision = revision;
        this.validity = validity;
        if (evidence === undefined) {
            this.shape = NO_EVIDENCE_GIVEN;
            this.count = 0;
        }
        else if (typeof evidence === "string") {
            this.shape = ONE_STRING;
            this.count = 1;
            this.items[0] = evidence;
        }
        else {
            this.shape = ITEM_LIST;
            this.count = evidence.length;
            for (let k = 0; k < evidence.length; k++)
                this.items[k] = evidence[k];
        }
    }
    /** set() of a row whose list came packed (ExportRow.packedEvidence). */
    setPacked(i, revision, validity, packed) {
        this.task = i;
        this.revision = revision;
        this.validity = validity;
        this.shape = PACKED_LIST;
        this.count = 1;
        this.items[0] = packed;
    }
    /** repeats() of a row whose list came packed: the same packed string (so the same items). */
    repeatsPacked(i, revision, validity, packed) {
        return (i === this.task &&
            revision === this.revision &&
            validity === this.validity &&
            this.shape === PACKED_LIST &&
            this.items[0] === packed);
    }
    repeats(i, revision, validity, evidence) {
        if (i !== this.task || revision !== this.revision || validity !== this.validity)
            return false;
        if (evidence === undefined)
            return this.shape === NO_EVIDENCE_GIVEN;
        if (typeof evidence === "string")
            return this.shape === ONE_STRING && this.items[0] === evidence;
        if (this.shape !== ITEM_LIST || evidence.length !== this.count)
            return false;
        for (let k = 0; k < evidence.length; k++)
            if (this.items[k] !== evidence[k])
                return false;
        return true;
    }
}
const NO_EVIDENCE_GIVEN = 0;
const ONE_STRING = 1;
const ITEM_LIST = 2;
/** A packed list (ExportRow.packedEvidence) in items[0]; a row of items never repeats it here. */
const PACKED_LIST = 3;

;// CONCATENATED MODULE: ./src/read/builder/label-history.ts
/**
 * The labels and evidence of each task (SPEC §1.1, §1.2): its distinct (review_revision,
 * validity) labels, each with the source, reviewer and note of the first row or review that gave
 * it, and at most MAX_EVIDENCE_PER_TASK evidence items, the task's and each label's (first seen
 * first). Any model's rows count toward a task's labels, and so do the reviews of a task a
 * compared model ran.
 *
 * A task's first label is held inline in the columns (label0*), later ones as LabelEvents
 * (MoreLabels, by labelKey once there are many). A label's evidence is the task's list (packed:
 * packed-evidence.ts) while it holds the same items, else a list of its own. Beside the state, for
 * speed only, EvidenceMemo and LastAdded (label-memo.ts) let the rows that repeat a label and its
 * items skip searching the task's lists.
 *
 * The builder is one object made in layers, one a file: BuilderState (builder-state.ts, what the
 * parts share), LabelHistory (here), DatasetBuilder (dataset-builder.ts, the row path). One
 * object, so that a row's calls into its labels stay direct: a label object of its own, reached
 * through a field, cost more work a row.
 */








/** Labels of a task looked up by a scan up to this many, by a map beyond. */
const LABEL_SCAN_MAX = 8;
function labelKey(revision, validity) {
    return `${revision}:${validity}`;
}
/** The builder's labels and evidence: the layer between its state and its row path. */
class LabelHistory extends BuilderState {
    /** The task whose later labels were looked up last, and those labels. */
    lastMoreTask = -1;
    lastMore = undefined;
    /** Beside the state, for speed only: a result row's label and evidence last added to a task
     * (made once a task's evidence differs between its rows). */
    memo = undefined;
    /** The last result row's label and evidence added to a task (LastAdded; for speed only). */
    lastAdded = new LastAdded();
    /** The label and evidence of a result row on task i. Returns false when a cap was passed (reported). */
    labelRow(i, row, src) {
        const evidence = row.evidence;
        const memo = this.memo;
        const last = this.lastAdded;
        if (row.packedEvidence !== undefined) {
            if (!this.packedRow(i, row.reviewRevision, row.validity, src, row.packedEvidence, row.packedItems))
                return false;
        }
        else if (!last.repeats(i, row.reviewRevision, row.validity, evidence) &&
            (memo === undefined ||
                evidence === undefined ||
                !memo.repeats(i, row.reviewRevision, row.validity, evidence, this.cols))) {
            last.forget();
            if (!this.addLabel(i, row.reviewRevision, row.validity, src, evidence, undefined, undefined))
                return false;
            if (evidence !== undefined)
                this.remember(i, row.reviewRevision, row.validity, evidence);
            last.set(i, row.reviewRevision, row.validity, evidence);
        }
        return true;
    }
    /** Drops what is remembered of the last rows (merging a range's state changes what it points at). */
    forgetLastLabels() {
        this.lastAdded.forget();
        this.lastMoreTask = -1;
        this.lastMore = undefined;
    }
    /** Drops the memo: it speaks of the lists held here, and merging rebuilds a task's labels and lists. */
    forgetMemo() {
        this.memo = undefined;
    }
    /**
     * After a row's label and evidence were added to task i: when its items stand together in the
     * task's list but not at its start (where addLabel's own check finds a repeat cheaply), e.g.
     * evidence that differs per (model, task), the next row with that label and those items is
     * known to change nothing (EvidenceMemo).
     */
    remember(i, revision, validity, evidence) {
        const list = this.cols.evidence[i];
        // (revision * 4 + code is exact below 2^51.)
        if (list === undefined || revision >= 2 ** 48)
            return;
        const first = typeof evidence === "string" ? evidence : evidence[0];
        if (first === undefined || first.length === 0 || packedStartsWith(list, first))
            return;
        // (Items are distinct: the first is found at most once, and the rest must follow it.)
        const start = packedIndexOf(list, first);
        if (start < 0 || !packedRunAt(list, start, evidence))
            return;
        (this.memo ??= new EvidenceMemo()).set(i, revision, validity, start, typeof evidence === "string" ? 1 : evidence.length);
    }
    /**
     * The label and evidence of a row whose list came packed (`packed`, `count` items: see
     * ExportRow.packedEvidence), as the row path above takes a list of items. The packed functions
     * read `packed` as one run of whole items (its separators are the list's), so each check is
     * the one the items would get; a task's first list is `packed` itself.
     */
    packedRow(i, revision, validity, src, packed, count) {
        const last = this.lastAdded;
        if (last.repeatsPacked(i, revision, validity, packed))
            return true;
        if (this.memo?.repeatsPacked(i, revision, validity, packed, count, this.cols) === true)
            return true;
        last.forget();
        if (!this.addLabel(i, revision, validity, src, undefined, undefined, undefined, packed, count))
            return false;
        const list = this.cols.evidence[i];
        // remember() with the items, unless the task's list begins with the first (it returns then).
        if (list !== undefined && !packedStartsWith(list, packed)) {
            const first = packed.slice(0, packed.indexOf(SEPARATOR));
            if (!packedStartsWith(list, first))
                this.remember(i, revision, validity, unpack(packed) ?? []);
        }
        last.setPacked(i, revision, validity, packed);
        return true;
    }
    /** Task i's labels after its first (looked up once for a run of rows of one task). */
    moreLabels(i) {
        if (i !== this.lastMoreTask) {
            this.lastMoreTask = i;
            this.lastMore = this.cols.moreLabels.get(i);
        }
        return this.lastMore;
    }
    addLabel(i, revision, validity, src, evidence, reviewer, note, 
    // A row's list given packed instead of `evidence` (packedRow), of `packedCount` items.
    packedList, packedCount = 0) {
        const cols = this.cols;
        const code = validityCode(validity);
        const flags = cols.flags[i] ?? 0;
        // The label of the row: the task's first (inline), a later one (`event`), or a new one.
        let event;
        let fresh = false;
        if ((flags & builder_columns/* F_LABEL0 */.sH) === 0 || cols.label0Revision[i] !== revision || cols.label0Validity[i] !== code) {
            let more = (flags & builder_columns/* F_MORE_LABELS */.t1) === 0 ? undefined : this.moreLabels(i);
            event =
                more === undefined
                    ? undefined
                    : more.index !== undefined
                        ? more.index.get(labelKey(revision, validity))
                        : findLabel(more.events, revision, validity);
            if (event === undefined) {
                const count = ((flags & builder_columns/* F_LABEL0 */.sH) === 0 ? 0 : 1) + (more?.events.length ?? 0);
                if (count >= this.limits.maxLabelsPerTask) {
                    this.capPassed(src, `task ${quote(cols.taskIds[i] ?? "")} (dataset_revision ${quote(this.revisionOf(i))}) has more than ` +
                        `${this.limits.maxLabelsPerTask} distinct (review_revision, validity) labels (the limit)`);
                    return false;
                }
                this.heldChars += (reviewer?.length ?? 0) + (note?.length ?? 0);
                // A new label's list starts empty: it is the task's list only while that is empty too.
                const own = cols.evidence[i] !== undefined;
                if ((flags & builder_columns/* F_LABEL0 */.sH) === 0) {
                    cols.flags[i] = flags | builder_columns/* F_LABEL0 */.sH | (own ? builder_columns/* F_LABEL0_OWN */.RJ : 0);
                    cols.label0Revision[i] = revision;
                    cols.label0Validity[i] = code;
                    cols.label0Src[i] = src;
                    if (reviewer !== undefined || note !== undefined)
                        cols.label0Meta.set(i, { reviewer, note });
                }
                else {
                    event = { revision, validity, src, reviewer, note, own, evidence: undefined };
                    if (more === undefined) {
                        more = { events: [event], index: undefined };
                        cols.moreLabels.set(i, more);
                        cols.flags[i] = flags | builder_columns/* F_MORE_LABELS */.t1;
                        this.lastMoreTask = i;
                        this.lastMore = more;
                    }
                    else {
                        more.events.push(event);
                    }
                    if (more.index !== undefined) {
                        more.index.set(labelKey(revision, validity), event);
                    }
                    else if (more.events.length + 1 > LABEL_SCAN_MAX) {
                        more.index = new Map(more.events.map((e) => [labelKey(e.revision, e.validity), e]));
                    }
                }
                fresh = true;
                if (revision > (cols.topRevision[i] ?? -1)) {
                    cols.topRevision[i] = revision;
                    cols.topValidity[i] = code;
                }
            }
        }
        const own = event === undefined ? ((cols.flags[i] ?? 0) & builder_columns/* F_LABEL0_OWN */.RJ) !== 0 : event.own;
        const packed = cols.evidence[i];
        if (packedList !== undefined) {
            // What the checks below do with the items, where `packedList` alone answers (a task's
            // first list: the items are distinct, non-empty and within the cap, so firstPacked would
            // join them as they are); anywhere else they go on with the items.
            if (packed === undefined && !own) {
                cols.evidence[i] = packedList;
                this.heldChars += packedList.length - (packedCount - 1);
                this.detachLabels(i, event, undefined, 0);
                return true;
            }
            const has = packedStartsWith(packed, packedList);
            if (has && !own)
                return true;
            if (has && own && this.ownList(i, event) === undefined && packed === packedList) {
                this.disown(i, event);
                return true;
            }
            evidence = unpack(packedList);
        }
        if (evidence === undefined) {
            if (fresh && own)
                this.settle(i, event);
            return true;
        }
        // Rows of a task usually repeat its evidence, which then stands first in both lists: adding
        // it again would change nothing, and checking that by position is cheaper than searching.
        const taskHas = packedStartsWith(packed, evidence);
        if (taskHas && (!own || startsWith(this.ownList(i, event), evidence)))
            return true;
        // The task's list first: a label keeps the task's string for an item both hold, and the
        // characters of a string are counted once. (withEvidence grows `before` in place.) When the
        // task's list begins with the row's items it gains none, and they are all the label shares.
        // A new label whose row gives exactly the task's list: settle() would find the list it built
        // equal to the task's and drop it (a task-heavy export's second label, on many of its tasks).
        if (taskHas && own && this.ownList(i, event) === undefined && packedRunAt(packed, 0, evidence, true)) {
            this.disown(i, event);
            return true;
        }
        let shared = evidence;
        if (!taskHas) {
            // A task's first items (no label can have a list of its own yet): packed as the row gives
            // them, without the list withEvidence builds and pack() joins (a task-heavy export's rows).
            if (packed === undefined && !own) {
                const first = this.firstPacked(evidence);
                if (first !== undefined) {
                    cols.evidence[i] = first;
                    this.detachLabels(i, event, undefined, 0);
                }
                return true;
            }
            const before = unpack(packed);
            const length = before?.length ?? 0;
            const after = this.withEvidence(before, evidence, undefined);
            if ((after?.length ?? 0) !== length) {
                cols.evidence[i] = pack(after);
                this.detachLabels(i, event, before, length);
            }
            shared = after;
        }
        if (own) {
            const list = this.withEvidence(this.ownList(i, event), evidence, shared);
            if (event === undefined)
                cols.label0Evidence.set(i, list);
            else
                event.evidence = list;
            this.settle(i, event);
        }
        return true;
    }
    /** The own evidence list of task i's first label (event undefined) or of a later one. */
    ownList(i, event) {
        return event === undefined ? this.cols.label0Evidence.get(i) : event.evidence;
    }
    /** A label whose own list holds the task's items again shares the task's list. */
    settle(i, event) {
        if (packedEquals(this.cols.evidence[i], this.ownList(i, event)))
            this.disown(i, event);
    }
    /** The label (event undefined: the first) shares the task's list from now on. */
    disown(i, event) {
        const cols = this.cols;
        if (event === undefined) {
            cols.label0Evidence.delete(i);
            cols.flags[i] = (cols.flags[i] ?? 0) & ~builder_columns/* F_LABEL0_OWN */.RJ;
        }
        else {
            event.own = false;
            event.evidence = undefined;
        }
    }
    /**
     * The task's list grew by a row of another label (`event`, undefined for the first): every
     * other label that shared it gets its own copy of what it held (the first `length` items).
     */
    detachLabels(i, event, before, length) {
        const cols = this.cols;
        const flags = cols.flags[i] ?? 0;
        const copy = () => length === 0 || before === undefined ? undefined : before.slice(0, length);
        if (event !== undefined && (flags & (builder_columns/* F_LABEL0 */.sH | builder_columns/* F_LABEL0_OWN */.RJ)) === builder_columns/* F_LABEL0 */.sH) {
            cols.flags[i] = flags | builder_columns/* F_LABEL0_OWN */.RJ;
            cols.label0Evidence.set(i, copy());
        }
        if ((flags & builder_columns/* F_MORE_LABELS */.t1) === 0)
            return;
        for (const e of this.moreLabels(i)?.events ?? []) {
            if (e !== event && !e.own) {
                e.own = true;
                e.evidence = copy();
            }
        }
    }
    /**
     * Adds evidence items to a list: non-empty, de-duplicated, first seen first, capped. An item
     * equal to one of `shared` is kept as that string (no second copy); the characters of new
     * strings are counted as held. Returns the list (a new one when `list` was undefined).
     */
    withEvidence(list, evidence, shared) {
        if (typeof evidence === "string")
            return this.withItem(list, evidence, shared);
        let out = list;
        for (const item of evidence)
            out = this.withItem(out, item, shared);
        // An array grown by push has room for 17 items: a task's first list is usually final, so it
        // is kept at its size (a third of a task's memory in a task-heavy export).
        if (list === undefined && out !== undefined && out.length > 1)
            out = out.slice();
        return out;
    }
    /**
     * The packed list withEvidence(undefined, evidence, undefined) gives (its characters counted as
     * held): the row's items joined as they are when they are distinct, non-empty and within the cap.
     */
    firstPacked(evidence) {
        if (typeof evidence !== "string") {
            const n = evidence.length;
            let plain = n <= read_limits/* MAX_EVIDENCE_PER_TASK */.zd;
            for (let k = 0; plain && k < n; k++) {
                const item = evidence[k];
                if (item.length === 0)
                    plain = false;
                for (let j = 0; plain && j < k; j++)
                    if (evidence[j] === item)
                        plain = false;
            }
            if (!plain)
                return pack(this.withEvidence(undefined, evidence, undefined));
            for (let k = 0; k < n; k++)
                this.heldChars += evidence[k].length;
            return pack(evidence);
        }
        if (evidence.length === 0)
            return undefined;
        this.heldChars += evidence.length;
        return evidence;
    }
    withItem(list, item, shared) {
        if (item.length === 0)
            return list;
        if (list !== undefined && (list.length >= read_limits/* MAX_EVIDENCE_PER_TASK */.zd || list.includes(item)))
            return list;
        const i = shared === undefined
            ? -1
            : typeof shared === "string"
                ? shared === item
                    ? 0
                    : -1
                : shared.indexOf(item);
        const value = i < 0 ? item : typeof shared === "string" ? shared : (shared?.[i] ?? item);
        if (i < 0)
            this.heldChars += item.length;
        if (list === undefined)
            return [value];
        list.push(value);
        return list;
    }
}
/** Every label of task i in the order found (the first, inline, as a LabelEvent too). */
function labelsOf(cols, i, flags) {
    const out = [];
    if ((flags & builder_columns/* F_LABEL0 */.sH) !== 0) {
        const meta = cols.label0Meta.get(i);
        const own = (flags & builder_columns/* F_LABEL0_OWN */.RJ) !== 0;
        out.push({
            revision: small(cols.label0Revision[i] ?? 0),
            validity: model_VALIDITIES[cols.label0Validity[i] ?? 0] ?? "unreviewed",
            src: cols.label0Src[i] ?? 0,
            reviewer: meta?.reviewer,
            note: meta?.note,
            own,
            evidence: own ? cols.label0Evidence.get(i) : undefined,
        });
    }
    for (const e of cols.moreLabels.get(i)?.events ?? [])
        out.push(e);
    return out;
}
/** A task's label events in history order: by revision, then source. */
function historyOrder(a, b) {
    return a.revision - b.revision || a.src - b.src;
}
/** Whether task i's later labels follow its first in history order (as they usually come). */
function laterInOrder(cols, i, later) {
    let revision = cols.label0Revision[i] ?? 0;
    let src = cols.label0Src[i] ?? 0;
    for (const e of later) {
        if (e.revision < revision || (e.revision === revision && e.src < src))
            return false;
        revision = e.revision;
        src = e.src;
    }
    return true;
}
/** Whether task i has a label other than unreviewed. */
function hasLabel(cols, i) {
    const flags = cols.flags[i] ?? 0;
    if ((flags & builder_columns/* F_LABEL0 */.sH) !== 0 && cols.label0Validity[i] !== validityCode("unreviewed"))
        return true;
    if ((flags & builder_columns/* F_MORE_LABELS */.t1) === 0)
        return false;
    return (cols.moreLabels.get(i)?.events ?? []).some((e) => e.validity !== "unreviewed");
}
/** What a state's evidence of task i counts as held: the task's items, and every label's items that
 * are not the task's (an item a label keeps when the task's list is full, counted per label). */
function evidenceChars(cols, i) {
    const task = cols.evidence[i];
    let n = packedChars(task);
    const flags = cols.flags[i] ?? 0;
    if ((flags & builder_columns/* F_LABEL0_OWN */.RJ) !== 0)
        n += charsNotIn(cols.label0Evidence.get(i), task);
    if ((flags & builder_columns/* F_MORE_LABELS */.t1) !== 0) {
        for (const e of cols.moreLabels.get(i)?.events ?? [])
            if (e.own)
                n += charsNotIn(e.evidence, task);
    }
    return n;
}
function charsOf(list) {
    let n = 0;
    for (const item of list ?? [])
        n += item.length;
    return n;
}
function charsNotIn(list, packed) {
    let n = 0;
    for (const item of list ?? [])
        if (packedIndexOf(packed, item) < 0)
            n += item.length;
    return n;
}
/**
 * `list` followed by the items of `more` it lacks, capped at MAX_EVIDENCE_PER_TASK: the evidence
 * of rows read after `list`'s, when `more` is theirs (first seen first, capped: the items taken
 * are among the first MAX_EVIDENCE_PER_TASK of `more`). `list` itself when nothing is added.
 */
function unionOf(list, more) {
    if (more === undefined || more.length === 0 || (list?.length ?? 0) >= read_limits/* MAX_EVIDENCE_PER_TASK */.zd)
        return list;
    let out;
    for (const item of more) {
        if (list?.includes(item) === true || out?.includes(item) === true)
            continue;
        out ??= list === undefined ? [] : list.slice();
        out.push(item);
        if (out.length >= read_limits/* MAX_EVIDENCE_PER_TASK */.zd)
            break;
    }
    return out ?? list;
}
/** The label (revision, validity) of a task's later labels (a loop: `find` with a closure cost
 * a closure per row). */
function findLabel(events, revision, validity) {
    for (const e of events)
        if (e.revision === revision && e.validity === validity)
            return e;
    return undefined;
}
/**
 * A label's own evidence list as the table keeps it: undefined when it has the task's items (the
 * table then gives the task's list), else the list itself (empty when there is none).
 */
function ownEvidence(own, task) {
    return packedEquals(task, own) ? undefined : (own ?? NO_EVIDENCE);
}
function sameItems(a, b) {
    if (a === b)
        return true;
    const n = a?.length ?? 0;
    if (n !== (b?.length ?? 0))
        return false;
    for (let i = 0; i < n; i++)
        if (a?.[i] !== b?.[i])
            return false;
    return true;
}
/** Whether a list begins with exactly these items (so holds them all). */
function startsWith(kept, evidence) {
    if (kept === undefined)
        return false;
    if (typeof evidence === "string")
        return kept[0] === evidence;
    if (evidence.length > kept.length)
        return false;
    for (let i = 0; i < evidence.length; i++)
        if (kept[i] !== evidence[i])
            return false;
    return true;
}

;// CONCATENATED MODULE: ./src/read/builder/dataset-finish.ts
/**
 * The builder's last step: the Dataset (the compared tasks in dataset order, as a ColumnTaskTable),
 * or one InputError listing every problem found, those found while reading first, then those
 * only the whole input shows (two labels at a task's highest revision, a cluster conflict, a
 * reviews file that labels no compared task).
 */











function finishDataset(b, inputs, rowsRead, complete, collectGarbage, emptyResults) {
    const present = b.modelsPresent();
    const modelProblems = [];
    for (const [role, id] of [
        ["baseline", b.baseline],
        ["candidate", b.candidate],
    ]) {
        // After a passed cap the rest was not read and may hold the id.
        if (complete && !b.stopped && !b.pairOfMany && !b.models.has(id)) {
            modelProblems.push({
                message: unknownModelMessage(role, id, present) + unicodeNearMatch(id, present),
            });
        }
    }
    // A compared model missing, and a results file without a row: most likely the reason, named first.
    const missing = modelProblems.length === 0
        ? modelProblems
        : emptyResults
            .map((e) => ({
            location: { file: b.fileNames[e.fileIndex] ?? "?" },
            message: emptyResultsMessage(e.bytes),
        }))
            .concat(modelProblems);
    const cols = b.cols;
    const ids = cols.taskIds;
    // The compared tasks by (dataset_revision, task_id): revisions in order, then each one's tasks.
    // (A counting sort by the revision's rank, then each revision's tasks by task_id.)
    const rank = new Uint32Array(b.revisionList.length);
    [...b.revisionList]
        .sort((a, b) => compareCodeUnits(a.name, b.name))
        .forEach((rev, r) => (rank[rev.index] = r));
    const start = new Uint32Array(b.revisionList.length + 1);
    for (let i = 0; i < cols.count; i++) {
        const r = (rank[cols.revision[i] ?? 0] ?? 0) + 1;
        if (b.inUniverse(i))
            start[r] = (start[r] ?? 0) + 1;
    }
    for (let r = 0; r < b.revisionList.length; r++)
        start[r + 1] = (start[r + 1] ?? 0) + (start[r] ?? 0);
    const size = start[b.revisionList.length] ?? 0;
    const universe = new Uint32Array(size);
    const fill = start.slice();
    for (let i = 0; i < cols.count; i++) {
        if (!b.inUniverse(i))
            continue;
        const r = rank[cols.revision[i] ?? 0] ?? 0;
        const at = fill[r] ?? 0;
        universe[at] = i;
        fill[r] = at + 1;
    }
    for (let r = 0; r < b.revisionList.length; r++) {
        // Sorted as an Array: V8's typed-array sort with a comparator is slower.
        const from = start[r] ?? 0;
        // (Copied by index: Array.from walks a typed array through its iterator, an object a task.)
        const part = new Array((start[r + 1] ?? 0) - from);
        for (let k = 0; k < part.length; k++)
            part[k] = universe[from + k] ?? 0;
        part.sort((a, b) => compareCodeUnits(ids[a] ?? "", ids[b] ?? ""));
        universe.set(part, from);
    }
    // Read before the per-task maps go; its problems come after the tasks' (as listed).
    const compared = new Set([...b.baselineState.datasetRevisions, ...b.candidateState.datasetRevisions]);
    for (const st of b.ranked?.states ?? [])
        for (const r of st.datasetRevisions)
            compared.add(r);
    const unmatchedProblems = new ProblemList();
    const unmatchedReviewFiles = [];
    const unmatchedLabels = unmatchedLabelsOf(b, compared, unmatchedProblems, unmatchedReviewFiles);
    // The task maps go before the table is made (finish is the last call): a task-heavy
    // export's peak memory is the held state and the table together.
    b.revisions.clear();
    b.index = new builder_columns/* TaskIndex */.YH();
    cols.baseline.releaseAttempts();
    cols.candidate.releaseAttempts();
    for (const m of cols.ranked)
        m.releaseAttempts();
    // The read's garbage (grown-out arrays, rows' strings) goes before the table is made.
    if (collectGarbage !== undefined && cols.count >= read_limits/* COLLECT_MIN_TASKS */.fo)
        collectGarbage();
    const late = new ProblemList();
    const revisions = new Set();
    const refused = missing.length > 0 || b.lineProblems.total > 0 || unmatchedProblems.total > 0;
    // In dataset order: the late problems in that order, the review revisions, each task's run of
    // label events in the table.
    const eventStart = new Uint32Array(size + 1);
    let eventCount = 0;
    const conflicts = cols.clusterConflicts.size > 0;
    for (let u = 0; u < size; u++) {
        const i = universe[u] ?? 0;
        const flags = cols.flags[i] ?? 0;
        eventStart[u] = eventCount;
        // A task's first row always adds a label unless it passed a cap (reported): then it has none.
        if ((flags & builder_columns/* F_MORE_LABELS */.t1) !== 0) {
            // Counted in place (labelsOf makes an event a label; addToTable makes them once): only
            // two different labels at the task's highest revision need them, for checkLabels.
            const top = cols.topRevision[i] ?? -1;
            let topCode = -1;
            let rival = false;
            if ((flags & builder_columns/* F_LABEL0 */.sH) !== 0) {
                const revision = cols.label0Revision[i] ?? 0;
                revisions.add(revision);
                if (revision === top)
                    topCode = cols.label0Validity[i] ?? 0;
                eventCount++;
            }
            for (const e of cols.moreLabels.get(i)?.events ?? []) {
                revisions.add(e.revision);
                eventCount++;
                if (e.revision !== top)
                    continue;
                const code = validityCode(e.validity);
                if (topCode < 0)
                    topCode = code;
                else if (code !== topCode)
                    rival = true;
            }
            if (rival)
                checkLabels(b, i, labelsOf(b.cols, i, flags), late);
        }
        else if ((flags & builder_columns/* F_LABEL0 */.sH) !== 0) {
            revisions.add(cols.label0Revision[i] ?? 0);
            eventCount++;
        }
        const conflict = conflicts ? cols.clusterConflicts.get(i) : undefined;
        if (conflict !== undefined) {
            late.add({
                location: b.locationOf(conflict.src),
                field: "cluster",
                message: `task ${quote(ids[i] ?? "")} (dataset_revision ${quote(b.revisionOf(i))}) has cluster ` +
                    `${quote(cols.clusters[i] ?? "")} at ${b.where(cols.clusterSrc[i] ?? 0)} and ` +
                    `${quote(conflict.value)} here; a task belongs to one cluster`,
            });
        }
    }
    eventStart[size] = eventCount;
    // Once the read is sure to end in an InputError no table is made: at a passed task cap, the
    // table beside the held state would raise the peak memory of the refusal (RELIABILITY.md).
    const table = refused || late.total > 0 ? undefined : newTable(b, universe, eventStart);
    if (table !== undefined) {
        // Filled in the builder's task order: its ~15 columns are read in order and the table's
        // written where each task goes (in dataset order every read would be a cache miss).
        const position = new Int32Array(cols.count).fill(-1);
        for (let u = 0; u < size; u++)
            position[universe[u] ?? 0] = u;
        for (let i = 0; i < cols.count; i++) {
            const u = position[i] ?? -1;
            if (u >= 0)
                addToTable(b, table, u, i, eventStart[u] ?? 0);
        }
        if (b.ranked !== undefined)
            b.ranked.counts = rankedCounts(cols.ranked, universe);
    }
    late.append(unmatchedProblems);
    const total = missing.length + b.lineProblems.total + late.total;
    if (total > 0) {
        const problems = [...missing, ...b.lineProblems.items, ...late.items];
        throw new InputError(`The results/reviews input has ${plural(total, "problem", "problems")}:`, problems, total);
    }
    return {
        tasks: table ?? newTable(b, new Uint32Array(0), new Uint32Array(1)),
        baseline: summary(b.baseline, b.baselineState),
        candidate: summary(b.candidate, b.candidateState),
        modelsPresent: present,
        inputs,
        rowsRead,
        reviewRevisions: [...revisions].sort((a, b) => a - b),
        ...(unmatchedLabels.length > 0 ? { unmatchedLabels } : {}),
        ...(b.pairOfMany ? { unmatchedReviewFiles } : {}),
    };
}
/**
 * Labels that match no compared task (docs/spec.md §1.2 "Reviews"): per reviews file,
 * the rows under dataset revisions that no task of the baseline or the candidate has; and the
 * export's labelled tasks (label other than unreviewed, from rows of other models) under such
 * revisions. A reviews file none of whose rows labels a compared task is a problem (`late`).
 */
function unmatchedLabelsOf(b, compared, late, matchingNothing) {
    const out = [];
    const comparedList = [...compared].sort(compareCodeUnits);
    for (const [fileIndex, st] of [...b.reviewFiles].sort((x, y) => x[0] - y[0])) {
        const file = b.fileNames[fileIndex] ?? "?";
        const unmatched = [...st.byRevision.keys()].filter((r) => !compared.has(r)).sort(compareCodeUnits);
        const rows = unmatched.reduce((s, r) => s + (st.byRevision.get(r) ?? 0), 0) + st.otherRows;
        if (st.matched === 0 && b.pairOfMany) {
            matchingNothing.push(file);
        }
        else if (st.matched === 0) {
            late.add({ location: { file }, message: noMatchMessage(st, unmatched, comparedList) });
        }
        else if (rows > 0) {
            out.push({ file, rows, of: st.rows, revisions: unmatched, moreRevisions: st.otherRows > 0 });
        }
    }
    const exportRevisions = [];
    let labelled = 0;
    const labelledIn = new Float64Array(b.revisionList.length);
    for (let i = 0; i < b.cols.count; i++) {
        const r = b.cols.revision[i] ?? 0;
        if (hasLabel(b.cols, i))
            labelledIn[r] = (labelledIn[r] ?? 0) + 1;
    }
    for (const rev of b.revisionList) {
        if (compared.has(rev.name))
            continue;
        const here = labelledIn[rev.index] ?? 0;
        if (here > 0) {
            exportRevisions.push(rev.name);
            labelled += here;
        }
    }
    if (labelled > 0) {
        out.push({
            rows: labelled,
            of: undefined,
            revisions: exportRevisions.sort(compareCodeUnits),
            moreRevisions: false,
        });
    }
    return out;
}
/** Two labels at a task's highest review revision: a problem at the second. */
function checkLabels(b, i, events, late) {
    const top = b.cols.topRevision[i] ?? -1;
    const label = events.find((e) => e.revision === top);
    const rival = events.find((e) => e.revision === top && e.validity !== label?.validity);
    if (label === undefined || rival === undefined)
        return;
    late.add({
        location: b.locationOf(rival.src),
        field: "validity",
        message: `task ${quote(b.cols.taskIds[i] ?? "")} (dataset_revision ${quote(b.revisionOf(i))}) has two ` +
            `different labels at its highest review_revision ${top}: "${label.validity}" ` +
            `at ${b.where(label.src)} and "${rival.validity}" here; record a disagreement as a ` +
            `later revision labelled "disputed"`,
    });
}
/** Each ranked model's counts by task of the table (`universe`: the table's tasks in order). */
function rankedCounts(ranked, universe) {
    return ranked.map((m) => {
        const out = new Array(universe.length);
        for (let u = 0; u < universe.length; u++) {
            const i = universe[u] ?? 0;
            if (m.seen[i] === 1)
                out[u] = countsOf(m, i);
        }
        return out;
    });
}
/** What the reader learned about ranked model k (a K-model read). */
function rankedSummary(b, k) {
    const st = b.ranked?.states[k];
    if (st === undefined)
        throw new Error(`dataset-finish: no ranked model ${k}`);
    return summary(b.ranked?.ids[k] ?? "", st);
}
/** An empty table for the tasks of `universe` (dataset order), their label events at eventStart. */
function newTable(b, universe, eventStart) {
    const cols = b.cols;
    const names = b.revisionList.map((r) => r.name);
    // Only the string columns: the table must not keep the builder's typed arrays alive.
    const strings = { taskIds: cols.taskIds, clusters: cols.clusters, evidence: cols.evidence };
    return new ColumnTaskTable(universe.length, eventStart, strings, names, b.fileNames);
}
/** Task i as the table's task u, its labels from event `e` on in history order (by revision, then source). */
function addToTable(b, table, u, i, e) {
    const cols = b.cols;
    const flags = cols.flags[i] ?? 0;
    const evidence = cols.evidence[i];
    table.setTask(u, i, cols.revision[i] ?? 0, cols.topValidity[i] ?? 0, cols.topRevision[i] ?? -1, (flags & builder_columns/* F_BASELINE */.rr) === 0 ? undefined : countsOf(cols.baseline, i), (flags & builder_columns/* F_CANDIDATE */.Nt) === 0 ? undefined : countsOf(cols.candidate, i));
    const more = (flags & builder_columns/* F_MORE_LABELS */.t1) === 0 ? undefined : cols.moreLabels.get(i)?.events;
    const first = (flags & builder_columns/* F_LABEL0 */.sH) !== 0;
    if (more === undefined || (first && laterInOrder(cols, i, more))) {
        // The labels in history order as held (one, the usual case, or the first then the later
        // ones in order): written from the columns, no LabelEvent list, no sort.
        let k = e;
        if (first) {
            const own = (flags & builder_columns/* F_LABEL0_OWN */.RJ) !== 0;
            table.setEvent(k++, cols.label0Revision[i] ?? 0, cols.label0Validity[i] ?? 0, cols.label0Src[i] ?? 0, own ? ownEvidence(cols.label0Evidence.get(i), evidence) : undefined, cols.label0Meta.get(i));
        }
        for (const ev of more ?? [])
            setLabelEvent(table, k++, ev, evidence);
        return;
    }
    // (labelsOf makes a new list: sorted in place.)
    const sorted = labelsOf(b.cols, i, flags).sort(historyOrder);
    for (let k = 0; k < sorted.length; k++)
        setLabelEvent(table, e + k, sorted[k], evidence);
}
function setLabelEvent(table, at, ev, evidence) {
    table.setEvent(at, ev.revision, validityCode(ev.validity), ev.src, ev.own ? ownEvidence(ev.evidence, evidence) : undefined, ev.reviewer === undefined && ev.note === undefined ? undefined : { reviewer: ev.reviewer, note: ev.note });
}
function summary(config, st) {
    return {
        config,
        harnessRevisions: [...st.harnessRevisions].sort(compareCodeUnits),
        datasetRevisions: [...st.datasetRevisions].sort(compareCodeUnits),
        duplicateRows: st.duplicateRows,
    };
}
/** Counts below this (each of the four) come from one shared object per combination. */
const SHARED_COUNTS_BELOW = 8;
const sharedCounts = [];
/**
 * A record's attempt counts. Tasks of a task-heavy export have a few attempts each, so the counts
 * repeat: one frozen object per combination below SHARED_COUNTS_BELOW (records are never
 * modified) instead of two objects a task.
 */
function countsOf(m, i) {
    const pass = small(m.pass[i] ?? 0);
    const fail = small(m.fail[i] ?? 0);
    const infraError = small(m.infraError[i] ?? 0);
    const missing = small(m.missing[i] ?? 0);
    const n = SHARED_COUNTS_BELOW;
    if (pass >= n || fail >= n || infraError >= n || missing >= n) {
        return { pass, fail, infra_error: infraError, missing };
    }
    const k = ((pass * n + fail) * n + infraError) * n + missing;
    let shared = sharedCounts[k];
    if (shared === undefined) {
        shared = Object.freeze({ pass, fail, infra_error: infraError, missing });
        sharedCounts[k] = shared;
    }
    return shared;
}

// EXTERNAL MODULE: ./src/read/builder/column-transfer.ts
var column_transfer = __nccwpck_require__(806);
;// CONCATENATED MODULE: ./src/read/builder/range-merge.ts
/**
 * Reading one results file in byte ranges (range-read.ts): each range after the first is read by
 * a builder of its own (its lines numbered from 1), whose state (snapshotOf) is then absorbed by
 * the main thread's builder in range order as if its lines had been read there. Only a clean
 * read is merged: when any range had a problem or passed a cap, or absorbing finds what would
 * have been one (a conflicting attempt, an aggregate beside per-attempt rows, a passed cap), the
 * caller reads the input again from the start, one line after another, for the exact messages.
 */









/**
 * Part of this builder's state, to absorb into another (after a structured clone: see
 * columnBuffers): tasks [from, to), and the model totals when `last`. Absorbing every part, in
 * order, absorbs the whole state.
 */
function snapshotOf(b, from, to, last) {
    const totals = (st) => last
        ? {
            harnessRevisions: [...st.harnessRevisions],
            datasetRevisions: [...st.datasetRevisions],
            duplicateRows: st.duplicateRows,
            attempts: st.attempts,
        }
        : { harnessRevisions: [], datasetRevisions: [], duplicateRows: 0, attempts: 0 };
    return {
        cols: from === 0 && to === b.cols.count ? b.cols : (0,column_transfer/* sliceColumns */.Ml)(b.cols, from, to),
        revisions: b.revisionList.map((r) => r.name),
        models: from === 0 ? [...b.models] : [],
        baseline: totals(b.baselineState),
        candidate: totals(b.candidateState),
    };
}
/**
 * Adds to `b` the state of a builder that read results lines of the same file right after the
 * lines read by `b`, numbered from 1 (`lines` is how many lines came before them): the state
 * becomes what reading those lines into `b` would have made, totals aside (absorbTotals).
 * Returns false when that reading would have reported a problem or passed a cap; `b` is then
 * spoilt (read again from the start).
 */
function absorbSnapshot(b, s, lines) {
    const p = (0,column_transfer/* reviveColumns */.dn)(s.cols, lines, b.attemptPool);
    for (const model of s.models) {
        if (b.models.has(model))
            continue;
        if (b.models.size >= b.limits.maxModels)
            return false;
        b.heldChars += model.length;
        b.models.add(model);
    }
    const revs = s.revisions.map((name) => b.revisionNamed(name));
    const cols = b.cols;
    const dups = [0, 0];
    for (let t = 0; t < p.count; t++) {
        const rev = revs[p.revision[t] ?? 0];
        const taskId = p.taskIds[t];
        if (rev === undefined || taskId === undefined)
            return false;
        const hash = builder_columns/* TaskIndex */.YH.hash(rev.index, taskId);
        const i = b.index.find(hash, rev.index, taskId, cols);
        if (i >= 0) {
            if (!mergeTask(b, i, p, t, dups))
                return false;
            continue;
        }
        if (cols.count >= b.limits.maxTasks)
            return false;
        b.heldChars += taskId.length;
        const fresh = cols.add(rev.index, taskId);
        b.index.add(hash, fresh);
        adoptTask(b, fresh, p, t);
    }
    if (!absorbTotals(b, b.baselineState, s.baseline, dups[0] ?? 0))
        return false;
    return absorbTotals(b, b.candidateState, s.candidate, dups[1] ?? 0);
}
function absorbTotals(b, st, t, dups) {
    const attempts = st.attempts + t.attempts;
    if (attempts > Number.MAX_SAFE_INTEGER)
        return false;
    st.attempts = attempts - dups;
    st.duplicateRows += t.duplicateRows + dups;
    for (const h of t.harnessRevisions)
        st.harnessRevisions.add(b.intern(h));
    for (const r of t.datasetRevisions)
        st.datasetRevisions.add(b.revisionNamed(r).name);
    return true;
}
/** Task t of `p`, not known here, becomes task i (its state taken over). */
function adoptTask(b, i, p, t) {
    const cols = b.cols;
    const flags = p.flags[t] ?? 0;
    cols.flags[i] = flags;
    cols.topRevision[i] = p.topRevision[t] ?? -1;
    cols.topValidity[i] = p.topValidity[t] ?? 0;
    cols.label0Revision[i] = p.label0Revision[t] ?? 0;
    cols.label0Validity[i] = p.label0Validity[t] ?? 0;
    cols.label0Src[i] = p.label0Src[t] ?? 0;
    if ((flags & builder_columns/* F_LABEL0_OWN */.RJ) !== 0)
        cols.label0Evidence.set(i, p.label0Evidence.get(t));
    const meta = p.label0Meta.get(t);
    if (meta !== undefined)
        cols.label0Meta.set(i, meta);
    const more = p.moreLabels.get(t);
    if (more !== undefined)
        cols.moreLabels.set(i, more);
    cols.evidence[i] = p.evidence[t];
    b.heldChars += evidenceChars(cols, i);
    const cluster = p.clusters[t];
    if (cluster !== undefined) {
        cols.clusters[i] = b.intern(cluster);
        cols.clusterSrc[i] = p.clusterSrc[t] ?? 0;
        const conflict = p.clusterConflicts.get(t);
        if (conflict !== undefined)
            cols.clusterConflicts.set(i, conflict);
    }
    if ((flags & builder_columns/* F_BASELINE */.rr) !== 0)
        adoptModel(b, i, cols.baseline, p.baseline, t);
    if ((flags & builder_columns/* F_CANDIDATE */.Nt) !== 0)
        adoptModel(b, i, cols.candidate, p.candidate, t);
}
/** A compared model's state on task t of `p`, with no row here yet, becomes its state on task i. */
function adoptModel(b, i, m, pm, t) {
    m.harness[i] = b.intern(pm.harness[t] ?? "");
    m.info[i] = pm.info[t] ?? 0;
    m.a0[i] = b.holdAttempt(pm.a0[t]);
    m.a0info[i] = pm.a0info[t] ?? 0;
    m.setCounts(i, pm.pass[t] ?? 0, pm.fail[t] ?? 0, pm.infraError[t] ?? 0, pm.missing[t] ?? 0);
    const more = pm.more.get(t);
    if (more !== undefined) {
        m.more.set(i, more);
        b.holdAll(more);
    }
    const others = pm.others.get(t);
    if (others === undefined)
        return;
    const held = new Map();
    for (const h of others.values())
        held.set(b.intern(h.harness), adoptHarness(b, h));
    m.others.set(i, held);
}
function adoptHarness(b, h) {
    if (h.more !== undefined)
        b.holdAll(h.more);
    return { ...h, harness: b.intern(h.harness), a0: b.holdAttempt(h.a0) };
}
/**
 * Task t of `p` into task i, known here. Returns false at what would have been a problem here.
 * `dups` counts, per compared model, the attempts of `p` that repeat one held here.
 */
function mergeTask(b, i, p, t, dups) {
    const cols = b.cols;
    const pf = p.flags[t] ?? 0;
    for (const [flag, role] of [
        [builder_columns/* F_BASELINE */.rr, 0],
        [builder_columns/* F_CANDIDATE */.Nt, 1],
    ]) {
        if ((pf & flag) === 0)
            continue;
        const m = role === 0 ? cols.baseline : cols.candidate;
        const pm = role === 0 ? p.baseline : p.candidate;
        if (((cols.flags[i] ?? 0) & flag) === 0) {
            cols.flags[i] = (cols.flags[i] ?? 0) | flag;
            adoptModel(b, i, m, pm, t);
            continue;
        }
        const repeated = mergeModel(b, i, m, pm, t);
        if (repeated < 0)
            return false;
        dups[role] = (dups[role] ?? 0) + repeated;
    }
    if (!mergeLabels(b, i, p, t))
        return false;
    const cluster = p.clusters[t];
    if (cluster !== undefined && !cols.clusterConflicts.has(i)) {
        const held = cols.clusters[i];
        if (held === undefined) {
            cols.clusters[i] = b.intern(cluster);
            cols.clusterSrc[i] = p.clusterSrc[t] ?? 0;
            const conflict = p.clusterConflicts.get(t);
            if (conflict !== undefined)
                cols.clusterConflicts.set(i, conflict);
        }
        else if (cluster !== held) {
            // The first row of p with a cluster is the first to contradict the one held here.
            cols.clusterConflicts.set(i, { value: cluster, src: p.clusterSrc[t] ?? 0 });
        }
        else {
            const conflict = p.clusterConflicts.get(t);
            if (conflict !== undefined)
                cols.clusterConflicts.set(i, conflict);
        }
    }
    return true;
}
/**
 * A compared model's rows of task t of `p` after its rows of task i here: their attempts are
 * folded into those held. Returns how many repeated an attempt held here (duplicates), or -1
 * for a conflicting result or rows of both kinds for one harness revision.
 */
function mergeModel(b, i, m, pm, t) {
    const counts = [0, 0, 0, 0];
    let failed = false;
    const harness = (name, info, a0, a0info, more) => {
        const inline = name === m.harness[i];
        const seen = inline ? undefined : m.others.get(i)?.get(name);
        if (!inline && seen === undefined) {
            m.othersOf(i).set(b.intern(name), adoptHarness(b, { harness: name, info, a0, a0info, more }));
            return;
        }
        const heldInfo = seen === undefined ? (m.info[i] ?? 0) : seen.info;
        if (info % 2 === KIND_AGGREGATED || heldInfo % 2 === KIND_AGGREGATED) {
            failed = true;
            return;
        }
        const put = (attempt, packed) => {
            const a0Here = seen === undefined ? m.a0[i] : seen.a0;
            const moreHere = seen === undefined ? m.more.get(i) : seen.more;
            const prev = attempt === a0Here ? (seen === undefined ? m.a0info[i] : seen.a0info) : moreHere?.get(attempt);
            if (prev !== undefined) {
                if (prev % 4 === packed % 4)
                    counts[packed % 4] = (counts[packed % 4] ?? 0) + 1;
                else
                    failed = true;
                return;
            }
            const held = b.holdAttempt(attempt) ?? attempt;
            if (a0Here === undefined) {
                if (seen === undefined) {
                    m.a0[i] = held;
                    m.a0info[i] = packed;
                }
                else {
                    seen.a0 = held;
                    seen.a0info = packed;
                }
            }
            else if (moreHere !== undefined) {
                moreHere.set(held, packed);
            }
            else {
                const fresh = new builder_columns/* AttemptIds */.g$(b.attemptPool);
                fresh.set(held, packed);
                if (seen === undefined)
                    m.more.set(i, fresh);
                else
                    seen.more = fresh;
            }
        };
        if (a0 !== undefined)
            put(a0, a0info);
        more?.forEach(put);
    };
    harness(pm.harness[t] ?? "", pm.info[t] ?? 0, pm.a0[t], pm.a0info[t] ?? 0, pm.more.get(t));
    for (const h of pm.others.get(t)?.values() ?? [])
        harness(h.harness, h.info, h.a0, h.a0info, h.more);
    if (failed)
        return -1;
    m.setCounts(i, (m.pass[i] ?? 0) + (pm.pass[t] ?? 0) - (counts[0] ?? 0), (m.fail[i] ?? 0) + (pm.fail[t] ?? 0) - (counts[1] ?? 0), (m.infraError[i] ?? 0) + (pm.infraError[t] ?? 0) - (counts[2] ?? 0), (m.missing[i] ?? 0) + (pm.missing[t] ?? 0) - (counts[3] ?? 0));
    return (counts[0] ?? 0) + (counts[1] ?? 0) + (counts[2] ?? 0) + (counts[3] ?? 0);
}
/**
 * The labels and evidence of task t of `p` after those of task i here. A label's evidence is
 * that of every row that gave it, first seen first, capped, so it is the list held here followed
 * by p's items it lacks; likewise the task's. Returns false past the labels cap.
 */
function mergeLabels(b, i, p, t) {
    const cols = b.cols;
    const flags = cols.flags[i] ?? 0;
    const pf = p.flags[t] ?? 0;
    const packedBefore = cols.evidence[i];
    const packedTheirs = p.evidence[t];
    // (The same items: nothing to add to the task's list.)
    const sameList = packedTheirs === packedBefore;
    const labelFlags = builder_columns/* F_LABEL0 */.sH | builder_columns/* F_LABEL0_OWN */.RJ | builder_columns/* F_MORE_LABELS */.t1;
    if ((flags & labelFlags) === builder_columns/* F_LABEL0 */.sH &&
        (pf & labelFlags) === builder_columns/* F_LABEL0 */.sH &&
        cols.label0Revision[i] === p.label0Revision[t] &&
        cols.label0Validity[i] === p.label0Validity[t]) {
        // One label on both sides, sharing the task's list: the usual case.
        if (sameList)
            return true;
        const before = unpack(packedBefore);
        const after = unionOf(before, unpack(packedTheirs));
        if (after !== before) {
            b.heldChars += charsOf(after) - charsOf(before);
            cols.evidence[i] = pack(after);
        }
        return true;
    }
    if ((flags & labelFlags) === builder_columns/* F_LABEL0 */.sH &&
        (pf & labelFlags) === builder_columns/* F_LABEL0 */.sH &&
        !p.label0Meta.has(t) &&
        b.limits.maxLabelsPerTask >= 2 &&
        sameList) {
        // A second label whose rows brought the task's evidence again (a task-heavy export's
        // candidate rows): it shares the task's list, which stays as it is.
        const revision = small(p.label0Revision[t] ?? 0);
        const code = p.label0Validity[t] ?? 0;
        const event = {
            revision,
            validity: model_VALIDITIES[code] ?? "unreviewed",
            src: p.label0Src[t] ?? 0,
            reviewer: undefined,
            note: undefined,
            own: false,
            evidence: undefined,
        };
        cols.moreLabels.set(i, { events: [event], index: undefined });
        cols.flags[i] = flags | builder_columns/* F_MORE_LABELS */.t1;
        if (revision > (cols.topRevision[i] ?? -1)) {
            cols.topRevision[i] = revision;
            cols.topValidity[i] = code;
        }
        return true;
    }
    const heldBefore = evidenceChars(cols, i);
    const before = unpack(packedBefore);
    const theirs = unpack(packedTheirs);
    const after = unionOf(before, theirs);
    const labels = labelsOf(cols, i, flags).map((e) => ({ ...e, list: e.own ? e.evidence : before }));
    // A label's own list is grown in place by later rows: never one that another list also is.
    const ownCopy = (list) => list === before || list === theirs ? list?.slice() : list;
    let top = cols.topRevision[i] ?? -1;
    let topValidity = cols.topValidity[i] ?? 0;
    for (const e of labelsOf(p, t, pf)) {
        const list = e.own ? e.evidence : theirs;
        const same = labels.find((l) => l.revision === e.revision && l.validity === e.validity);
        if (same !== undefined) {
            same.list = unionOf(same.list, list);
            continue;
        }
        if (labels.length >= b.limits.maxLabelsPerTask)
            return false;
        b.heldChars += (e.reviewer?.length ?? 0) + (e.note?.length ?? 0);
        labels.push({ ...e, list });
        if (e.revision > top) {
            top = e.revision;
            topValidity = validityCode(e.validity);
        }
    }
    cols.topRevision[i] = top;
    cols.topValidity[i] = topValidity;
    cols.evidence[i] = pack(after);
    let out = flags & ~labelFlags;
    const first = labels[0];
    if (first !== undefined) {
        out |= builder_columns/* F_LABEL0 */.sH;
        cols.label0Revision[i] = first.revision;
        cols.label0Validity[i] = validityCode(first.validity);
        cols.label0Src[i] = first.src;
        if (first.reviewer !== undefined || first.note !== undefined) {
            cols.label0Meta.set(i, { reviewer: first.reviewer, note: first.note });
        }
        if (sameItems(first.list, after)) {
            cols.label0Evidence.delete(i);
        }
        else {
            out |= builder_columns/* F_LABEL0_OWN */.RJ;
            cols.label0Evidence.set(i, ownCopy(first.list));
        }
    }
    if (labels.length > 1) {
        const events = labels.slice(1).map((l) => {
            const own = !sameItems(l.list, after);
            return {
                revision: l.revision,
                validity: l.validity,
                src: l.src,
                reviewer: l.reviewer,
                note: l.note,
                own,
                evidence: own ? ownCopy(l.list) : undefined,
            };
        });
        const index = events.length + 1 > LABEL_SCAN_MAX
            ? new Map(events.map((e) => [labelKey(e.revision, e.validity), e]))
            : undefined;
        cols.moreLabels.set(i, { events, index });
        out |= builder_columns/* F_MORE_LABELS */.t1;
    }
    else {
        cols.moreLabels.delete(i);
    }
    cols.flags[i] = out;
    b.heldChars += evidenceChars(cols, i) - heldBefore;
    return true;
}

;// CONCATENATED MODULE: ./src/read/builder/dataset-builder.ts
/**
 * Reduces validated rows to the Dataset (SPEC §1.1, §1.2, §1.4) with memory that grows with the
 * number of (model, task) pairs, never with the number of rows:
 * - for every task (any model's rows carry labels that count toward its effective validity): the
 *   distinct (review_revision, validity) events with their first source, the cluster, and at most
 *   MAX_EVIDENCE_PER_TASK evidence items (label-history.ts);
 * - for the baseline and the candidate only, per task: the attempt counts, the attempt keys seen
 *   (to fold duplicates and catch conflicting results; small: one entry per attempt of the task),
 *   and which harness revisions came as per-attempt or pre-aggregated rows;
 * - every model_config seen (for the "unknown model id" message).
 *
 * This file is the row path: each results line (the byte scanner first, JSON.parse for any other
 * line) and each reviews line, checked and added. Each task has a number; its state is held in
 * columns by that number (builder-columns.ts: typed arrays, the rare things in side maps), found
 * through the task after the last row's, then an open-addressing table (TaskIndex), with the
 * tasks of one revision sharing its string. Attempt ids are kept as given (AttemptIds: small
 * integers in Uint32 blocks of the builder's AttemptPool indexed by the id, anything else in a
 * Map, so 1 and "1" stay apart); the usual single harness revision of a (model, task) is held
 * inline, more in a map. The builder is made in layers (label-history.ts): what the parts share
 * is builder-state.ts, the labels label-history.ts; the Dataset is made by dataset-finish.ts, a
 * range's state merged by range-merge.ts.
 *
 * Problems about tasks outside the universe (tasks neither compared model ran) are not reported:
 * such a task's label or cluster conflict cannot change the output. Duplicate attempts and
 * conflicting results are checked for the two compared models only, for the same reason.
 *
 * What is held is capped (InputLimits: distinct tasks, models, labels per task, attempt ids, and
 * characters of kept text), and each compared model's attempt total must stay a safe integer.
 * Passing a cap is one problem naming the line; the rest of the input is then only counted, not
 * held, and the read ends in an InputError.
 */









/** Distinct dataset revisions counted per reviews file; rows of further revisions are counted together. */
const MAX_REVISIONS_HELD = 100;
class DatasetBuilder extends LabelHistory {
    lastModel = undefined;
    /** The last row's model as a ranked model's index (-1: not ranked); a K-model read only. */
    lastRanked = -1;
    /** The dataset_revision of the last row that found or made its tasks, and those tasks. */
    lastRevision = undefined;
    lastTasks = undefined;
    /** The task of the last row that found or made one (-1: none yet). */
    lastTask = -1;
    issues = new LineIssues();
    exportRow = emptyExportRow();
    reviewRow = emptyReviewRow();
    // (packEvidence: resultRow takes a row's packed list: LabelHistory.packedRow.)
    scanner = new RowScanner(true);
    constructor(baseline, candidate, 
    /** Display names of the input files, by file index. */
    fileNames, limits = {}) {
        super(baseline, candidate, fileNames, limits);
    }
    /** One non-blank line of a results export; `plain` as in line-splitter.ts's LineHandler. */
    addResultLine(text, fileIndex, line, plain = false) {
        if (this.stopped)
            return;
        const issues = this.issues;
        issues.reset();
        const obj = parseObject(text, issues);
        const row = this.exportRow;
        if (obj === undefined || !checkExportRow(obj, row, issues, plain)) {
            this.lineProblem(this.src(fileIndex, line), issues.field, issues.text());
            return;
        }
        this.addResultRow(row, fileIndex, line);
    }
    /**
     * One non-blank line of a results export as bytes (line-splitter.ts's ByteLineHandler): the byte
     * scanner reads the common row shape; any other line goes the JSON.parse way (row-scanner.ts).
     */
    addResultBytes(bytes, begin, end, flags, fileIndex, line) {
        if (this.stopped)
            return;
        if (this.scanner.scan(bytes, begin, end, this.exportRow)) {
            this.addResultRow(this.exportRow, fileIndex, line);
            return;
        }
        this.addResultLine(bytes.toString("utf8", begin, end), fileIndex, line, (flags & line_flags/* LINE_PLAIN */.U) !== 0);
    }
    /** A results line already parsed and checked. */
    addResultRow(row, fileIndex, line) {
        if (this.stopped)
            return;
        const src = this.src(fileIndex, line);
        this.resultRow(row, src);
        this.checkHeld(src);
    }
    resultRow(row, src) {
        const model = row.modelConfig;
        if (model !== this.lastModel) {
            if (!this.models.has(model)) {
                if (this.models.size >= this.limits.maxModels) {
                    this.capPassed(src, `the export has more than ${this.limits.maxModels} distinct model_config ids (the limit)`);
                    return;
                }
                this.heldChars += model.length;
                this.models.add(model);
                if (this.ranked?.every === true)
                    this.ranked.add(model);
            }
            this.lastModel = model;
            this.lastRanked = this.ranked?.byId.get(model) ?? -1;
        }
        const isBaseline = model === this.baseline;
        const isCandidate = model === this.candidate;
        // Rows of one dataset revision come in runs: comparing with the last one is cheaper than
        // hashing a fresh 70-character string for the map on every row.
        let rev = row.datasetRevision === this.lastRevision ? this.lastTasks : this.revisions.get(row.datasetRevision);
        const cols = this.cols;
        let i;
        let hash = 0;
        let probed = false;
        if (rev !== undefined) {
            this.lastRevision = rev.name;
            this.lastTasks = rev;
            // Models usually run the tasks in one order, and attempts of a task come together: the
            // task after the last row's, or that task again, before a lookup in a map of every task
            // (a cache miss a row once there are many tasks).
            const last = this.lastTask;
            const next = last + 1;
            if (next < cols.count && cols.taskIds[next] === row.taskId && cols.revision[next] === rev.index) {
                i = next;
            }
            else if (last >= 0 && cols.taskIds[last] === row.taskId && cols.revision[last] === rev.index) {
                i = last;
            }
            else {
                hash = builder_columns/* TaskIndex */.YH.hash(rev.index, row.taskId);
                const found = this.index.find(hash, rev.index, row.taskId, cols);
                if (found >= 0)
                    i = found;
                probed = true;
            }
        }
        if (i === undefined) {
            if (cols.count >= this.limits.maxTasks) {
                this.capPassed(src, `the export has more than ${this.limits.maxTasks} distinct tasks (dataset_revision, task_id) ` +
                    `over all models (the limit, which bounds the memory used)`);
                return;
            }
            this.heldChars += row.taskId.length;
            if (rev === undefined) {
                const name = this.intern(row.datasetRevision);
                rev = { name, index: this.revisionList.length };
                this.revisions.set(name, rev);
                this.revisionList.push(rev);
                this.lastRevision = name;
                this.lastTasks = rev;
            }
            if (!probed) {
                // A new revision: the index was not asked yet (it has no such task), and says where it goes.
                hash = builder_columns/* TaskIndex */.YH.hash(rev.index, row.taskId);
                this.index.find(hash, rev.index, row.taskId, cols);
            }
            i = cols.add(rev.index, row.taskId);
            this.index.add(hash, i);
        }
        this.lastTask = i;
        // (rev is defined: i was found in its map, or both were made above.)
        if (rev === undefined)
            return;
        // The attempt first: a row that conflicts with an earlier attempt is reported and contributes nothing.
        if (isBaseline && !this.compared(i, builder_columns/* F_BASELINE */.rr, cols.baseline, this.baselineState, rev, row, src))
            return;
        if (isCandidate && !this.compared(i, builder_columns/* F_CANDIDATE */.Nt, cols.candidate, this.candidateState, rev, row, src))
            return;
        const k = this.lastRanked;
        if (k >= 0) {
            const ranked = this.ranked?.states[k];
            const m = cols.ranked[k];
            if (ranked !== undefined && m !== undefined && !this.compared(i, builder_columns/* F_RANKED */.l_, m, ranked, rev, row, src))
                return;
        }
        if (!this.labelRow(i, row, src))
            return;
        const cluster = row.cluster;
        if (cluster !== undefined) {
            const held = cols.clusters[i];
            if (held === undefined) {
                cols.clusters[i] = this.intern(cluster);
                cols.clusterSrc[i] = src;
            }
            else if (cluster !== held && !cols.clusterConflicts.has(i)) {
                cols.clusterConflicts.set(i, { value: cluster, src });
            }
        }
    }
    /** A row of a compared model on task i. Returns false when it conflicts (reported). */
    compared(i, flag, m, model, rev, row, src) {
        const cols = this.cols;
        const flags = cols.flags[i] ?? 0;
        // (F_RANKED is every ranked model's: each has its own `seen`.)
        if (flag === builder_columns/* F_RANKED */.l_ ? m.seen[i] === 0 : (flags & flag) === 0) {
            // The model's first row on this task: nothing to conflict with yet.
            cols.flags[i] = flags | flag;
            m.seen[i] = 1;
            m.harness[i] = this.internHarness(row.harnessRevision);
            m.info[i] = src * 2 + (row.result < 0 ? KIND_AGGREGATED : KIND_ATTEMPTS);
            m.a0[i] = this.holdAttempt(row.attempt);
            m.a0info[i] = src * 4 + row.result;
            return this.countRow(i, m, model, rev, row, src);
        }
        return this.addAttempt(i, m, model, rev, row, src);
    }
    /** Counts one further row of a compared model on task i. Returns false when it conflicts (reported). */
    addAttempt(i, m, model, rev, row, src) {
        const harness = row.harnessRevision;
        const kind = row.result < 0 ? KIND_AGGREGATED : KIND_ATTEMPTS;
        const inline = harness === m.harness[i];
        const seen = inline ? undefined : m.others.get(i)?.get(harness);
        if (!inline && seen === undefined) {
            m.othersOf(i).set(harness, {
                harness: this.internHarness(harness),
                info: src * 2 + kind,
                a0: this.holdAttempt(row.attempt),
                a0info: src * 4 + row.result,
                more: undefined,
            });
            return this.countRow(i, m, model, rev, row, src);
        }
        const info = seen === undefined ? (m.info[i] ?? 0) : seen.info;
        if (kind === KIND_AGGREGATED || info % 2 === KIND_AGGREGATED) {
            const other = this.where(Math.floor(info / 2));
            const what = `model_config ${quote(row.modelConfig)}, task ${quote(this.cols.taskIds[i] ?? "")}, dataset_revision ` +
                `${quote(rev.name)}, harness_revision ${quote(harness)}`;
            const message = kind === KIND_AGGREGATED && info % 2 === KIND_AGGREGATED
                ? `a second pre-aggregated row for ${what}; the first is at ${other}. Two aggregates of ` +
                    `the same attempts are ambiguous: give one row with the totals`
                : `pre-aggregated and per-attempt rows for the same ${what} (the other kind is at ${other}); ` +
                    `whether the aggregate includes those attempts is ambiguous: give one kind only`;
            this.lineProblem(src, undefined, message);
            return false;
        }
        const attempt = row.attempt;
        if (attempt !== undefined) {
            const a0 = seen === undefined ? m.a0[i] : seen.a0;
            const more = seen === undefined ? m.more.get(i) : seen.more;
            const prev = attempt === a0 ? (seen === undefined ? m.a0info[i] : seen.a0info) : more?.get(attempt);
            if (prev !== undefined) {
                const prevResult = prev % 4;
                if (prevResult === row.result) {
                    model.duplicateRows++;
                    return true;
                }
                const prevName = RESULT_NAMES[prevResult] ?? "?";
                const name = RESULT_NAMES[row.result] ?? "?";
                this.lineProblem(src, "result", `conflicts with ${this.where(Math.floor(prev / 4))}: the same attempt (model_config ` +
                    `${quote(row.modelConfig)}, task ${quote(this.cols.taskIds[i] ?? "")}, dataset_revision ` +
                    `${quote(rev.name)}, harness_revision ${quote(harness)}, attempt ` +
                    `${typeof attempt === "number" ? String(attempt) : quote(attempt)}) is "${prevName}" there ` +
                    `and "${name}" here; a repeated attempt must repeat its result`);
                return false;
            }
            const held = this.holdAttempt(attempt) ?? attempt;
            if (a0 === undefined) {
                if (seen === undefined) {
                    m.a0[i] = held;
                    m.a0info[i] = src * 4 + row.result;
                }
                else {
                    seen.a0 = held;
                    seen.a0info = src * 4 + row.result;
                }
            }
            else if (more !== undefined) {
                more.set(held, src * 4 + row.result);
            }
            else {
                const fresh = new builder_columns/* AttemptIds */.g$(this.attemptPool);
                fresh.set(held, src * 4 + row.result);
                if (seen === undefined)
                    m.more.set(i, fresh);
                else
                    seen.more = fresh;
            }
        }
        return this.countRow(i, m, model, rev, row, src);
    }
    /**
     * Adds a row that is not a duplicate to its model's counts and revisions. Returns false
     * (reported) when the model's attempt total would pass Number.MAX_SAFE_INTEGER, beyond which
     * sums are no longer exact.
     */
    countRow(i, m, model, rev, row, src) {
        const total = row.result < 0
            ? safeSum(safeSum(safeSum(safeSum(model.attempts, row.passes), row.fails), row.infraErrors), row.missing)
            : safeSum(model.attempts, 1);
        if (total < 0) {
            this.capPassed(src, `the attempts of model_config ${quote(row.modelConfig)} add up to more than ` +
                `${Number.MAX_SAFE_INTEGER}, the largest count held exactly; its figures would be altered`);
            return false;
        }
        model.attempts = total;
        // (A count of one attempt a row reaches NARROW_COUNT_MAX only after 2^32 rows: checked anyway.)
        switch (row.result) {
            case 0: {
                const v = (m.pass[i] ?? 0) + 1;
                if (v > builder_columns/* NARROW_COUNT_MAX */.RL)
                    m.widen();
                m.pass[i] = v;
                break;
            }
            case 1: {
                const v = (m.fail[i] ?? 0) + 1;
                if (v > builder_columns/* NARROW_COUNT_MAX */.RL)
                    m.widen();
                m.fail[i] = v;
                break;
            }
            case 2: {
                const v = (m.infraError[i] ?? 0) + 1;
                if (v > builder_columns/* NARROW_COUNT_MAX */.RL)
                    m.widen();
                m.infraError[i] = v;
                break;
            }
            case 3: {
                const v = (m.missing[i] ?? 0) + 1;
                if (v > builder_columns/* NARROW_COUNT_MAX */.RL)
                    m.widen();
                m.missing[i] = v;
                break;
            }
            default:
                m.setCounts(i, (m.pass[i] ?? 0) + row.passes, (m.fail[i] ?? 0) + row.fails, (m.infraError[i] ?? 0) + row.infraErrors, (m.missing[i] ?? 0) + row.missing);
        }
        // Rows of a harness revision and a dataset revision come in runs: a comparison with the last
        // one instead of a Set lookup (a hash of a fresh string) on every row.
        if (row.harnessRevision !== model.lastHarness) {
            const harness = this.internHarness(row.harnessRevision);
            model.harnessRevisions.add(harness);
            model.lastHarness = harness;
        }
        if (rev !== model.lastRevision) {
            model.datasetRevisions.add(rev.name);
            model.lastRevision = rev;
        }
        return true;
    }
    /** One non-blank line of a reviews file, read after every results file; `plain` as in
     * line-splitter.ts's LineHandler. */
    addReviewLine(text, fileIndex, line, plain = false) {
        if (this.stopped)
            return;
        const issues = this.issues;
        issues.reset();
        const obj = parseObject(text, issues);
        const row = this.reviewRow;
        if (obj === undefined || !checkReviewRow(obj, row, issues, plain)) {
            this.lineProblem(this.src(fileIndex, line), issues.field, issues.text());
            return;
        }
        const rev = this.revisions.get(row.datasetRevision);
        const found = rev === undefined
            ? -1
            : this.index.find(builder_columns/* TaskIndex */.YH.hash(rev.index, row.taskId), rev.index, row.taskId, this.cols);
        const i = found < 0 ? undefined : found;
        const matched = i !== undefined && this.inUniverse(i);
        this.countReview(fileIndex, row.datasetRevision, matched);
        // A review of a task neither compared model ran is not part of the output.
        if (!matched)
            return;
        const src = this.src(fileIndex, line);
        const note = row.note === "" ? undefined : row.note;
        this.addLabel(i, row.reviewRevision, row.validity, src, row.evidence, row.reviewer, note);
        this.checkHeld(src);
    }
    /** Counts one review row of a file, by dataset revision (a bounded number of revisions held). */
    countReview(fileIndex, revision, matched) {
        let st = this.reviewFiles.get(fileIndex);
        if (st === undefined) {
            st = { rows: 0, matched: 0, byRevision: new Map(), otherRows: 0 };
            this.reviewFiles.set(fileIndex, st);
        }
        st.rows++;
        if (matched)
            st.matched++;
        const n = st.byRevision.get(revision);
        if (n !== undefined)
            st.byRevision.set(revision, n + 1);
        else if (st.byRevision.size < MAX_REVISIONS_HELD) {
            this.heldChars += revision.length;
            st.byRevision.set(revision, 1);
        }
        else
            st.otherRows++;
    }
    /**
     * The Dataset, or one InputError listing every problem found. `complete` is false when a file
     * could not be read to its end (a problem already says so): then a model id missing from what
     * was read is not reported, since the unread part may hold it.
     */
    finish(inputs, rowsRead, complete, collectGarbage, emptyResults = []) {
        // (The revision's tasks the row path remembers go with the rest of the read-only state.)
        this.lastTasks = undefined;
        return finishDataset(this, inputs, rowsRead, complete, collectGarbage, emptyResults);
    }
    /** What the reader learned about ranked model k, after finish (a K-model read). */
    rankedSummary(k) {
        return rankedSummary(this, k);
    }
    /*
     * Reading one results file in byte ranges (range-read.ts, range-merge.ts): the state of a
     * builder that read a later range is absorbed here in range order.
     */
    /**
     * Part of this builder's state, to absorb into another (after a structured clone: see
     * columnBuffers): tasks [from, to), and the model totals when `last`. Absorbing every part, in
     * order, absorbs the whole state.
     */
    snapshot(from = 0, to = this.cols.count, last = true) {
        return snapshotOf(this, from, to, last);
    }
    /**
     * Adds the state of a builder that read results lines of the same file right after the lines
     * read here, numbered from 1 (`lines` is how many lines came before them): the state becomes
     * what reading those lines here would have made. Returns false when that reading would have
     * reported a problem or passed a cap; this builder is then spoilt (read again from the start).
     */
    absorb(s, lines) {
        if (!this.healthy())
            return false;
        this.forgetLast();
        this.forgetMemo();
        if (!absorbSnapshot(this, s, lines))
            return false;
        this.forgetLast();
        return this.heldChars <= this.limits.maxHeldChars && this.attemptIds <= this.limits.maxAttemptIds;
    }
    /** Drops what the row path remembers of the last row (absorb changes what it points at). */
    forgetLast() {
        this.forgetLastLabels();
        this.lastHarness = undefined;
        this.lastModel = undefined;
        this.lastRanked = -1;
        this.lastRevision = undefined;
        this.lastTasks = undefined;
        this.lastTask = -1;
        for (const st of [this.baselineState, this.candidateState]) {
            st.lastHarness = undefined;
            st.lastRevision = undefined;
        }
    }
}
/** a + b for safe integers a, b ≥ 0 when the sum is a safe integer; else (or when a < 0) -1. */
function safeSum(a, b) {
    return a < 0 || b > Number.MAX_SAFE_INTEGER - a ? -1 : a + b;
}


/***/ }),

/***/ 826:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   CC: () => (/* binding */ MAX_LINES_PER_FILE),
/* harmony export */   CL: () => (/* binding */ DEFAULT_INPUT_LIMITS),
/* harmony export */   Oc: () => (/* binding */ MAX_LINE_BYTES),
/* harmony export */   Qx: () => (/* binding */ MAX_ID_LENGTH),
/* harmony export */   XG: () => (/* binding */ MAX_NOTE_LENGTH),
/* harmony export */   Yb: () => (/* binding */ MAX_EVIDENCE_LENGTH),
/* harmony export */   fo: () => (/* binding */ COLLECT_MIN_TASKS),
/* harmony export */   gR: () => (/* binding */ MAX_LISTED_MODEL_IDS),
/* harmony export */   zd: () => (/* binding */ MAX_EVIDENCE_PER_TASK)
/* harmony export */ });
/* unused harmony export MAX_INPUT_FILES */
/**
 * Safety caps of the input reader (SPEC §1.1). They bound memory and keep messages readable; a
 * value over a cap is an input error, never silently cut.
 */
/** Longest accepted line, in bytes of UTF-8 (without the LF; a CR before it counts). Checked while
 * splitting, before JSON.parse, so an overlong line is never held whole in memory. */
const MAX_LINE_BYTES = 1024 * 1024;
/** Longest accepted identifier, in UTF-16 code units: task_id, dataset_revision, harness_revision,
 * model_config, a string attempt, cluster, reviewer. */
const MAX_ID_LENGTH = 4096;
/** Longest accepted evidence item (a path or URL), in UTF-16 code units. */
const MAX_EVIDENCE_LENGTH = 8192;
/** Longest accepted review note, in UTF-16 code units. */
const MAX_NOTE_LENGTH = 65536;
/** Evidence items kept per task (TaskRecord.evidence) and per history event, first seen first.
 * A report shows a handful of links per task; more would only grow memory with the row count. */
const MAX_EVIDENCE_PER_TASK = 20;
/** How many model_config ids an "unknown model id" error lists before it only counts the rest. */
const MAX_LISTED_MODEL_IDS = 20;
/** How many input files one read accepts (results and reviews together). */
const MAX_INPUT_FILES = 10_000;
/** Lines per file the reader can number (file:line locations are packed into one safe integer). */
const MAX_LINES_PER_FILE = 2 ** 32 - 1;
const DEFAULT_INPUT_LIMITS = {
    maxTasks: 1_000_000,
    maxModels: 10_000,
    maxLabelsPerTask: 1_000,
    maxAttemptIds: 20_000_000,
    maxHeldChars: 256 * 1024 * 1024,
};
/**
 * Tasks from which the reader asks for a full collection (ReadOptions.collectGarbage) where a
 * large read leaves most of its memory as garbage; a smaller read's garbage is a few MB.
 */
const COLLECT_MIN_TASKS = 100_000;


/***/ }),

/***/ 530:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   U: () => (/* binding */ LINE_PLAIN),
/* harmony export */   t: () => (/* binding */ LINE_ASCII)
/* harmony export */ });
/** Flags of a line handed over as bytes (line-splitter.ts's ByteLineHandler). */
/** The line holds no backslash, DEL or U+0080–U+00BF: none of its JSON strings can hold a
 * control character (see line-splitter.ts's LineHandler). */
const LINE_PLAIN = 1;
/** Every byte of the line is below 0x80. */
const LINE_ASCII = 2;


/***/ }),

/***/ 647:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  $O: () => (/* binding */ readRangeState)
});

// UNUSED EXPORTS: DEFAULT_RANGE_MIN_BYTES, MAX_RANGE_TASKS, rangeStarts, readInRanges, readRange, tasksPerPart

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
// EXTERNAL MODULE: external "node:worker_threads"
var external_node_worker_threads_ = __nccwpck_require__(919);
// EXTERNAL MODULE: ./src/read/builder/column-transfer.ts
var column_transfer = __nccwpck_require__(806);
;// CONCATENATED MODULE: ./src/core/fs-error-words.ts
/**
 * File-system errno codes in words, for every message that names a failed open, read or write:
 * the one map both the reader (src/read/lines/fs-errors.ts) and the file checks (src/io/file-kind.ts)
 * use. Pure text (here, under the core, because read/ and io/ may both import the core and not each
 * other); the codes users know are the keys.
 */
const FS_CODE_WORDS = {
    ENOENT: "no such file",
    ENOTDIR: "no such file (a parent of the path is not a directory)",
    EACCES: "permission denied",
    EPERM: "permission denied",
    EISDIR: "it is a directory",
    ELOOP: "too many levels of symbolic links",
    ENAMETOOLONG: "the path is too long",
    ENOSPC: "no space left on the device",
    EDQUOT: "the disk quota is exceeded",
    EFBIG: "the file is too large for the file system or the process's file size limit",
    EROFS: "the file system is read-only",
    EIO: "an I/O error",
    ENXIO: "a FIFO with no reader or a device that is not there",
    ENOTREGULAR: "it is not a regular file",
};
/** The error's `code` when it has a string one (Node's fs errors do). */
function fs_error_words_errorCode(e) {
    if (typeof e === "object" && e !== null && "code" in e && typeof e.code === "string")
        return e.code;
    return undefined;
}
/** The words for the error's code, or undefined for a code not in the map (or none). */
function fs_error_words_fsCodeWords(e) {
    const code = fs_error_words_errorCode(e);
    return code === undefined ? undefined : FS_CODE_WORDS[code];
}

;// CONCATENATED MODULE: ./src/read/lines/fs-errors.ts
/** File-system errors as short, stack-free sentences for the reader's messages. */


function fs_errors_errorMessage(e) {
    return e instanceof Error ? e.message : String(e);
}
/** A short, stack-free sentence for a failed open/stat/read (the words of fs-error-words.ts). */
function fs_errors_describeFsError(e) {
    return fsCodeWords(e) ?? `cannot read the file (${errorCode(e) ?? fs_errors_errorMessage(e)})`;
}

;// CONCATENATED MODULE: ./src/read/lines/file-hash.ts
/**
 * Hashing an input file. SHA-256 is native but synchronous: on the main thread it takes time
 * the reader could use. A plain file of at least WORKER_HASH_MIN_BYTES is therefore hashed
 * by a worker thread that reads the same open file (the same file descriptor, by position, so a
 * rename or replacement of the path cannot make it read another file) while the main thread
 * reads it; a smaller one is hashed inline, where starting a thread would cost more than it
 * saves, and so is a gzip file (few bytes to hash for the lines they hold). The digest is of the
 * same bytes as long as the file is not modified while it is read; a change of its length in that
 * time (an export still being written) is caught by comparing the byte counts of both reads, and
 * reported.
 *
 * The worker runs a self-contained script (only node: built-ins) passed as text: it needs none
 * of the bundle. If the worker cannot run at all (it fails to start or dies without an answer),
 * the file is hashed again on the main thread by position, so the digest never depends on
 * threads being available.
 */



const file_hash_WORKER_HASH_MIN_BYTES = (/* unused pure expression or super */ null && (8 * 1024 * 1024));
const HASH_READ_BYTES = (/* unused pure expression or super */ null && (1024 * 1024));
const HASH_WORKER_SOURCE = (/* unused pure expression or super */ null && (`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { readSync } = require("node:fs");
const { createHash } = require("node:crypto");
const hash = createHash("sha256");
const buf = Buffer.allocUnsafe(workerData.chunk);
let pos = 0;
try {
  for (;;) {
    const n = readSync(workerData.fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    hash.update(buf.subarray(0, n));
    pos += n;
  }
  parentPort.postMessage({ digest: hash.digest("hex"), bytes: pos });
} catch (e) {
  parentPort.postMessage({
    error: {
      code: e && typeof e.code === "string" ? e.code : undefined,
      message: e instanceof Error ? e.message : String(e),
    },
  });
}
`));
/** Hashes the file by position on the main thread (the fallback when the worker cannot run). */
async function hashByPosition(fh) {
    const hash = createHash("sha256");
    const buf = Buffer.allocUnsafe(HASH_READ_BYTES);
    let pos = 0;
    try {
        for (;;) {
            const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
            if (bytesRead === 0)
                break;
            hash.update(buf.subarray(0, bytesRead));
            pos += bytesRead;
        }
    }
    catch (e) {
        return { error: { code: errorCode(e), message: errorMessage(e) } };
    }
    return { digest: hash.digest("hex"), bytes: pos };
}
function isFileHash(m) {
    if (typeof m !== "object" || m === null)
        return false;
    if ("digest" in m)
        return typeof m.digest === "string" && "bytes" in m && typeof m.bytes === "number";
    return "error" in m && typeof m.error === "object" && m.error !== null;
}
/** Starts hashing `fh` on a worker thread; the fd must stay open until `result` or `cancel` settles. */
function file_hash_hashInWorker(fh) {
    let worker;
    try {
        worker = new Worker(HASH_WORKER_SOURCE, {
            eval: true,
            workerData: { fd: fh.fd, chunk: HASH_READ_BYTES },
            // The worker only hashes: a small heap keeps its share of the peak RSS small.
            resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
        });
    }
    catch {
        const result = hashByPosition(fh);
        return { result, cancel: () => result.then(() => undefined) };
    }
    let cancelled = false;
    const answer = new Promise((settle) => {
        worker.once("message", (m) => {
            settle(isFileHash(m) ? m : undefined);
        });
        worker.once("error", () => {
            settle(undefined);
        });
        worker.once("exit", () => {
            settle(undefined);
        });
    });
    const result = answer.then((r) => (r !== undefined || cancelled ? r : hashByPosition(fh)));
    return {
        // An undefined answer after a cancel is never awaited as a digest (the read has failed).
        result: result.then((r) => r ?? { error: { code: undefined, message: "cancelled" } }),
        cancel: async () => {
            cancelled = true;
            await worker.terminate();
        },
    };
}

;// CONCATENATED MODULE: external "node:stream"
const external_node_stream_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");
;// CONCATENATED MODULE: external "node:stream/promises"
const external_node_stream_promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream/promises");
;// CONCATENATED MODULE: external "node:zlib"
const external_node_zlib_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");
;// CONCATENATED MODULE: external "node:buffer"
const external_node_buffer_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");
// EXTERNAL MODULE: ./src/read/lines/line-flags.ts
var line_flags = __nccwpck_require__(530);
// EXTERNAL MODULE: ./src/read/limits.ts
var limits = __nccwpck_require__(826);
;// CONCATENATED MODULE: ./src/read/lines/line-splitter.ts
/**
 * Splits the bytes of a file into lines, on LF, counting bytes so that an overlong line is
 * reported and skipped without ever being held whole. A UTF-8 BOM at the start of the file, or of
 * a line (as left by concatenating files), and CR before LF are dropped; blank lines are skipped.
 * Every problem of a line (overlong, not UTF-8, past the line cap) goes to the ProblemHandler.
 */



/** The line `text[begin, end)` of a LineHandler call. */
function lineOf(text, begin, end) {
    return begin === 0 && end === text.length ? text : text.slice(begin, end);
}
/** The first line is looked at only when it ends within the first chunk and is at most this long. */
const FIRST_LINE_MAX_BYTES = 64 * 1024;
const LF = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;
const DEL = 0x7f;
/** U+FEFF, the byte order mark (EF BB BF in UTF-8). */
const BOM = 0xfeff;
/** Lines are decoded in spans of about this many bytes (see LineSplitter.wholeLines). */
const SPAN_BYTES = 32 * 1024;
/**
 * Splits byte chunks into lines, counting bytes so that an overlong line is skipped, not buffered.
 * A splitter may start at a line of the file other than its first (`lineNo`: the lines before;
 * range-read.ts reads a file in byte ranges cut at line ends).
 */
class line_splitter_LineSplitter {
    onProblem;
    carry = [];
    carryLength = 0;
    /** The current line is over MAX_LINE_BYTES: drop bytes until its LF. */
    skipping = false;
    lineNo;
    stopped = false;
    nonBlankLines = 0;
    onLine;
    onBytes;
    /** Set until the first chunk: looks at the first line (see FirstLineCheck). */
    firstLine;
    refusedFile = false;
    constructor(lines, onProblem, lineNo = 0, firstLine) {
        this.onProblem = onProblem;
        this.firstLine = firstLine;
        this.lineNo = lineNo;
        this.onLine = typeof lines === "function" ? lines : undefined;
        this.onBytes = typeof lines === "function" ? undefined : lines.bytes;
    }
    /** The number of the last line split (blank or not), or the lines before when none was. */
    get lines() {
        return this.lineNo;
    }
    /** Whether the file's line cap stopped the splitter (reported): later lines are not read. */
    get halted() {
        return this.stopped;
    }
    /** Whether the first line showed that the file is not JSON lines (reported): no line was read. */
    get refused() {
        return this.refusedFile;
    }
    push(chunk) {
        // (Once a file: a field test a chunk, not a line.)
        if (this.firstLine !== undefined)
            this.checkFirstLine(chunk);
        if (this.stopped)
            return;
        const first = chunk.indexOf(LF);
        if (first === -1) {
            this.carryOn(chunk, 0);
            return;
        }
        // The line ending at the first LF may have begun in earlier chunks: the byte-counting path.
        this.lineEnd(chunk, 0, first);
        if (this.stopped)
            return;
        const last = chunk.lastIndexOf(LF);
        if (last > first)
            this.wholeLines(chunk, first + 1, last);
        if (last + 1 < chunk.length)
            this.carryOn(chunk, last + 1);
    }
    /** Bytes from `start` to the end of the chunk, with no LF: the start of a line continued later. */
    carryOn(chunk, start) {
        if (this.stopped || this.skipping)
            return;
        const rest = chunk.length - start;
        if (rest === 0)
            return;
        if (this.carryLength + rest > limits/* MAX_LINE_BYTES */.Oc) {
            this.overlong(this.lineNo + 1);
            this.skipping = true;
            return;
        }
        // A copy: the reader reuses its buffer for the next chunk.
        this.carry.push(Buffer.from(chunk.subarray(start)));
        this.carryLength += rest;
    }
    /** The line ending at `chunk[nl]` (an LF), whose bytes in this chunk start at `start`. */
    lineEnd(chunk, start, nl) {
        if (!this.nextLineNo())
            return;
        if (this.skipping) {
            // The end of a line already reported as overlong.
            this.skipping = false;
        }
        else if (this.carryLength + (nl - start) > limits/* MAX_LINE_BYTES */.Oc) {
            this.overlong(this.lineNo);
        }
        else if (this.carryLength === 0) {
            this.emit(chunk.subarray(start, nl));
        }
        else {
            this.carry.push(chunk.subarray(start, nl));
            const whole = Buffer.concat(this.carry, this.carryLength + (nl - start));
            this.carry = [];
            this.carryLength = 0;
            this.emit(whole);
        }
    }
    /**
     * The lines of `chunk[begin, end)`, which starts a line and ends at an LF (excluded). Checking
     * UTF-8 and decoding once for a span of lines, then cutting the text at "\n", saves two native
     * calls and a Buffer view per line. It gives the same lines: an LF byte is always a whole
     * character in UTF-8, so a span is valid exactly when each of its lines is, and "\n" in the
     * text is exactly an LF byte. Spans are cut at an LF near SPAN_BYTES: a string much larger is
     * allocated outside V8's regular heap pages (a map and unmap each time).
     */
    wholeLines(chunk, begin, end) {
        let start = begin;
        while (start <= end && !this.stopped) {
            if (isBlankByte(chunk[start] ?? 0) && end + 1 - start >= 2 * BLANK_BLOCK_BYTES) {
                start = this.skipBlankRun(chunk, start, end + 1);
                if (start > end)
                    return;
            }
            let stop = end;
            if (end - start > SPAN_BYTES) {
                stop = chunk.lastIndexOf(LF, start + SPAN_BYTES);
                // One line longer than a span: up to its LF (chunk[end] is one).
                if (stop < start)
                    stop = chunk.indexOf(LF, start + SPAN_BYTES);
            }
            this.span(chunk, start, stop);
            start = stop + 1;
        }
    }
    /**
     * Skips a run of identical blank lines (such as LF after LF, or CRLF after CRLF) starting at
     * `chunk[start]`, up to `stop` (just after an LF): blocks of the run are compared with the
     * repeated first line by memcmp, so that a gzip stream inflating to gigabytes of blank lines
     * costs about what inflating it costs, not a call per line. Returns where the lines to split
     * one by one begin (at `start` when there is no such run); line numbers count the skipped lines.
     */
    skipBlankRun(chunk, start, stop) {
        const nl = chunk.indexOf(LF, start);
        const length = nl + 1 - start;
        if (nl < 0 || nl >= stop || length > MAX_BLANK_PATTERN || !isBlank(chunk, start, nl))
            return start;
        let pattern = this.blankPattern;
        if (pattern.length === 0 ||
            pattern.length % length !== 0 ||
            pattern.compare(chunk, start, nl + 1, 0, length) !== 0) {
            pattern = Buffer.alloc(length * Math.floor(BLANK_BLOCK_BYTES / length));
            for (let k = 0; k < pattern.length; k += length)
                chunk.copy(pattern, k, start, nl + 1);
            this.blankPattern = pattern;
        }
        const block = pattern.length;
        const lines = block / length;
        let p = start;
        while (stop - p >= block && this.lineNo + lines <= limits/* MAX_LINES_PER_FILE */.CC) {
            if (chunk.compare(pattern, 0, block, p, p + block) !== 0)
                break;
            this.lineNo += lines;
            p += block;
        }
        // The tail of the run in this chunk, shorter than a block.
        const rest = Math.min(stop - p, block) - (Math.min(stop - p, block) % length);
        if (rest > 0 &&
            this.lineNo + rest / length <= limits/* MAX_LINES_PER_FILE */.CC &&
            chunk.compare(pattern, 0, rest, p, p + rest) === 0) {
            this.lineNo += rest / length;
            p += rest;
        }
        return p;
    }
    /** The last block skipBlankRun compared with (the repeated blank line). */
    blankPattern = Buffer.alloc(0);
    /** Whole lines as in wholeLines. A span that is not valid UTF-8 (to name the bad lines) or could
     * hold an overlong line (to count its bytes) goes line by line as bytes. */
    span(chunk, begin, end) {
        const bytes = chunk.subarray(begin, end);
        if (end - begin > limits/* MAX_LINE_BYTES */.Oc || !(0,external_node_buffer_namespaceObject.isUtf8)(bytes)) {
            let start = begin;
            while (start <= end && !this.stopped) {
                let nl = chunk.indexOf(LF, start);
                if (nl === -1 || nl > end)
                    nl = end;
                this.lineEnd(chunk, start, nl);
                start = nl + 1;
            }
            return;
        }
        // See LineHandler. C2 is the lead byte of U+0080–U+00BF (C1 is U+0080–U+009F); three scans
        // of the span (memchr) are far cheaper than a RegExp test of each identifier of each line.
        const plain = bytes.indexOf(BACKSLASH) === -1 && bytes.indexOf(DEL) === -1 && bytes.indexOf(0xc2) === -1;
        if (this.onBytes !== undefined) {
            this.spanBytes(chunk, begin, end, (plain ? line_flags/* LINE_PLAIN */.U : 0) | ((0,external_node_buffer_namespaceObject.isAscii)(bytes) ? line_flags/* LINE_ASCII */.t : 0));
            return;
        }
        const text = chunk.toString("utf8", begin, end);
        let start = 0;
        while (start <= text.length) {
            let nl = text.indexOf("\n", start);
            if (nl === -1)
                nl = text.length;
            if (!this.nextLineNo())
                return;
            this.emitText(text, start, nl, plain);
            start = nl + 1;
        }
    }
    /** `span` for a ByteLineHandler: the same lines, not decoded. */
    spanBytes(chunk, begin, end, flags) {
        let start = begin;
        while (start <= end) {
            let nl = chunk.indexOf(LF, start);
            if (nl === -1 || nl > end)
                nl = end;
            if (!this.nextLineNo())
                return;
            this.emitBytes(chunk, start, nl, flags);
            start = nl + 1;
        }
    }
    /** The first chunk's first non-blank line, given to the FirstLineCheck. */
    checkFirstLine(chunk) {
        const check = this.firstLine;
        this.firstLine = undefined;
        if (check === undefined || this.carryLength > 0 || this.skipping)
            return;
        let line = this.lineNo;
        for (let start = 0;;) {
            const nl = chunk.indexOf(LF, start);
            if (nl === -1 || nl - start > FIRST_LINE_MAX_BYTES)
                return;
            line++;
            let begin = start;
            let end = nl;
            if (end > begin && chunk[end - 1] === CR)
                end--;
            if (end - begin >= 3 &&
                chunk[begin] === 0xef &&
                chunk[begin + 1] === 0xbb &&
                chunk[begin + 2] === 0xbf) {
                begin += 3;
            }
            if (!isBlank(chunk, begin, end)) {
                const bytes = chunk.subarray(begin, end);
                const message = (0,external_node_buffer_namespaceObject.isUtf8)(bytes) ? check(bytes.toString("utf8")) : undefined;
                if (message !== undefined) {
                    this.onProblem(line, message);
                    this.refusedFile = true;
                    this.stopped = true;
                }
                return;
            }
            start = nl + 1;
        }
    }
    /** The last line, when the file does not end with LF. */
    end() {
        if (this.stopped || this.skipping || this.carryLength === 0)
            return;
        if (!this.nextLineNo())
            return;
        const whole = Buffer.concat(this.carry, this.carryLength);
        this.carry = [];
        this.carryLength = 0;
        this.emit(whole);
    }
    nextLineNo() {
        if (this.lineNo >= limits/* MAX_LINES_PER_FILE */.CC) {
            this.onProblem(undefined, `the file has more than ${limits/* MAX_LINES_PER_FILE */.CC} lines; the rest is not read`);
            this.stopped = true;
            return false;
        }
        this.lineNo++;
        return true;
    }
    overlong(line) {
        this.nonBlankLines++;
        this.carry = [];
        this.carryLength = 0;
        this.onProblem(line, `the line is longer than ${limits/* MAX_LINE_BYTES */.Oc} bytes (the limit); one JSON object per line is expected`);
    }
    emit(bytes) {
        let end = bytes.length;
        if (end > 0 && bytes[end - 1] === CR)
            end--;
        let begin = 0;
        if (end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
            begin = 3;
        }
        if (isBlank(bytes, begin, end))
            return;
        this.nonBlankLines++;
        const line = begin === 0 && end === bytes.length ? bytes : bytes.subarray(begin, end);
        if (!(0,external_node_buffer_namespaceObject.isUtf8)(line)) {
            this.onProblem(this.lineNo, "the line is not valid UTF-8 text");
            return;
        }
        if (this.onBytes !== undefined) {
            this.onBytes(line, 0, line.length, this.lineNo, (0,external_node_buffer_namespaceObject.isAscii)(line) ? line_flags/* LINE_ASCII */.t : 0);
            return;
        }
        const text = line.toString("utf8");
        this.onLine?.(text, 0, text.length, this.lineNo, false);
    }
    /** `emit` for a line of a valid UTF-8 span, as bytes: `chunk[begin, end)`. */
    emitBytes(chunk, begin, end, flags) {
        if (end > begin && chunk[end - 1] === CR)
            end--;
        if (end - begin >= 3 && chunk[begin] === 0xef && chunk[begin + 1] === 0xbb && chunk[begin + 2] === 0xbf) {
            begin += 3;
        }
        if (isBlank(chunk, begin, end))
            return;
        this.nonBlankLines++;
        this.onBytes?.(chunk, begin, end, this.lineNo, flags);
    }
    /** `emit` for a line already decoded: `text[begin, end)`, known to be valid UTF-8. */
    emitText(text, begin, end, plain) {
        if (end > begin && text.charCodeAt(end - 1) === CR)
            end--;
        if (end > begin && text.charCodeAt(begin) === BOM)
            begin++;
        for (let i = begin;; i++) {
            if (i === end)
                return; // blank: only spaces, tabs and CRs
            const c = text.charCodeAt(i);
            if (c !== 0x20 && c !== 0x09 && c !== CR)
                break;
        }
        this.nonBlankLines++;
        this.onLine?.(text, begin, end, this.lineNo, plain);
    }
}
/** Blank runs are compared in blocks of about this many bytes (see skipBlankRun). */
const BLANK_BLOCK_BYTES = 16 * 1024;
/** The longest blank line (with its LF) skipBlankRun repeats into a block. */
const MAX_BLANK_PATTERN = 64;
function isBlankByte(b) {
    return b === LF || b === 0x20 || b === 0x09 || b === CR;
}
/** Only spaces, tabs and CRs (JSON whitespace; LF cannot occur inside a line). */
function isBlank(bytes, begin, end) {
    for (let i = begin; i < end; i++) {
        const b = bytes[i];
        if (b !== 0x20 && b !== 0x09 && b !== CR)
            return false;
    }
    return true;
}

;// CONCATENATED MODULE: ./src/read/lines/file-stream.ts
/**
 * Streams one input file as lines: plain or gzip (detected by the magic bytes 1f 8b, not by the
 * name), hashed with SHA-256 over its raw bytes (file-hash.ts), split into lines by
 * line-splitter.ts (an overlong line is reported and skipped without ever being held whole; BOMs,
 * CR before LF and blank lines are dropped).
 *
 * Every problem (unreadable file, corrupt gzip, overlong line, bytes that are not UTF-8) is passed
 * to `onProblem` instead of being thrown, so that the caller can collect the problems of all files
 * into one message. Only a bug in `onLine` propagates as an exception.
 */








const READ_CHUNK_BYTES = 256 * 1024;
/**
 * Whether the file starts with gzip's magic bytes (as streamLines decides); false when it cannot
 * be read (streamLines then reports why).
 */
async function isGzipFile(absPath) {
    let fh;
    try {
        fh = await open(absPath, "r");
        const head = Buffer.alloc(2);
        const n = (await fh.read(head, 0, 2, 0)).bytesRead;
        return n === 2 && head[0] === 0x1f && head[1] === 0x8b;
    }
    catch {
        return false;
    }
    finally {
        await fh?.close().catch(() => undefined);
    }
}
/** A format we can name but do not read: saying so beats 1e6 "not valid JSON" messages. */
function sniffUnsupported(head, n) {
    const at = (i) => (i < n ? (head[i] ?? -1) : -1);
    if ((at(0) === 0xff && at(1) === 0xfe) || (at(0) === 0xfe && at(1) === 0xff)) {
        return "the file is UTF-16 text; expected UTF-8 JSON lines";
    }
    if (at(0) === 0x28 && at(1) === 0xb5 && at(2) === 0x2f && at(3) === 0xfd) {
        return "the file is zstd-compressed; only plain or gzip-compressed JSON lines are read";
    }
    if (at(0) === 0xfd && at(1) === 0x37 && at(2) === 0x7a && at(3) === 0x58 && at(4) === 0x5a) {
        return "the file is xz-compressed; only plain or gzip-compressed JSON lines are read";
    }
    if (at(0) === 0x42 && at(1) === 0x5a && at(2) === 0x68 && at(3) >= 0x31 && at(3) <= 0x39) {
        return "the file is bzip2-compressed; only plain or gzip-compressed JSON lines are read";
    }
    if (at(0) === 0x50 && at(1) === 0x4b && at(2) === 0x03 && at(3) === 0x04) {
        return "the file is a zip archive; only plain or gzip-compressed JSON lines are read";
    }
    return undefined;
}
function trailingBytesMessage(gzipBytes, fileBytes) {
    const rest = fileBytes - gzipBytes;
    return (`the gzip data ends after ${gzipBytes} of the file's ${fileBytes} bytes; the ` +
        `${rest > 0 ? `${rest} bytes` : "bytes"} after it are not gzip data (zero padding, or something ` +
        `appended to the file) and would be ignored: decompress the file and compress it again`);
}
/**
 * Reads `absPath` to its end, calling `onLine` for each non-blank line. Never throws for a
 * user-caused problem (those go to `onProblem`); rethrows what `onLine` throws. A `firstLine`
 * check that refuses the file (see FirstLineCheck) leaves it unread (sha256 undefined).
 */
async function streamLines(absPath, onLine, onProblem, firstLine) {
    let fh;
    try {
        fh = await open(absPath, "r");
    }
    catch (e) {
        onProblem(undefined, describeFsError(e));
        return { sha256: undefined, nonBlankLines: 0 };
    }
    const splitter = new LineSplitter(onLine, onProblem, 0, firstLine);
    let gzip = false;
    // What onLine threw (a bug, not user input): rethrown as itself, not as the
    // AbortError the pipeline turns it into.
    let handlerFailed = false;
    let handlerError;
    let bytesRead = 0;
    let gunzip;
    let pending;
    /** The read in flight (plain files): awaited before the fd is closed. */
    let reading;
    try {
        const head = Buffer.alloc(6);
        const headBytes = (await fh.read(head, 0, head.length, 0)).bytesRead;
        gzip = headBytes >= 2 && head[0] === 0x1f && head[1] === 0x8b;
        const unsupported = sniffUnsupported(head, headBytes);
        if (unsupported !== undefined) {
            onProblem(undefined, unsupported);
            return { sha256: undefined, nonBlankLines: 0 };
        }
        const size = (await fh.stat()).size;
        // A gzip file's compressed bytes are few next to what is inflated and parsed from them:
        // hashing them here costs less than a thread's memory.
        const hashHere = gzip || size < WORKER_HASH_MIN_BYTES;
        pending = hashHere ? undefined : hashInWorker(fh);
        const hash = pending === undefined ? createHash("sha256") : undefined;
        const take = (chunk) => {
            try {
                splitter.push(chunk);
            }
            catch (e) {
                handlerFailed = true;
                handlerError = e;
                throw e;
            }
        };
        if (gzip) {
            // The compressed bytes are hashed on their way to zlib.
            const hasher = new Transform({
                transform(chunk, _encoding, callback) {
                    hash?.update(chunk);
                    bytesRead += chunk.length;
                    callback(null, chunk);
                },
            });
            const source = fh.createReadStream({ start: 0, autoClose: false, highWaterMark: READ_CHUNK_BYTES });
            const sink = async (chunks) => {
                for await (const chunk of chunks)
                    take(chunk);
            };
            gunzip = createGunzip({ chunkSize: READ_CHUNK_BYTES });
            await pipeline(source, hasher, gunzip, sink);
            // zlib stops at a byte after a gzip member that does not start another member (Node treats
            // a zero byte as padding) and drops the rest of the file without an error: lines there
            // would be lost in silence.
            if (gunzip.bytesWritten !== bytesRead) {
                onProblem(undefined, trailingBytesMessage(gunzip.bytesWritten, (await fh.stat()).size));
                return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
            }
        }
        else {
            // Two buffers, used in turn: the next chunk is read (on libuv's thread pool) while this
            // one's lines are handled, instead of this thread waiting for each read; and no new buffer
            // per chunk, which would leave dead buffers between collections. The splitter copies what
            // it carries to the next chunk, and `take` returns once the chunk is used, before its
            // buffer is read into again.
            let buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
            let spare = Buffer.allocUnsafe(READ_CHUNK_BYTES);
            reading = fh.read(buffer, 0, READ_CHUNK_BYTES, 0);
            for (;;) {
                const n = (await reading).bytesRead;
                reading = undefined;
                if (n === 0)
                    break;
                const chunk = buffer.subarray(0, n);
                bytesRead += n;
                [buffer, spare] = [spare, buffer];
                reading = fh.read(buffer, 0, READ_CHUNK_BYTES, bytesRead);
                hash?.update(chunk);
                take(chunk);
                if (splitter.refused)
                    break;
            }
        }
        if (splitter.refused)
            return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
        try {
            splitter.end();
        }
        catch (e) {
            handlerFailed = true;
            handlerError = e;
            throw e;
        }
        if (pending === undefined) {
            return { sha256: hash?.digest("hex"), nonBlankLines: splitter.nonBlankLines };
        }
        const hashed = await pending.result;
        pending = undefined;
        if ("error" in hashed) {
            onProblem(undefined, describeFsError(hashed.error));
            return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
        }
        if (hashed.bytes !== bytesRead) {
            onProblem(undefined, `the file changed while it was read (${bytesRead} bytes, then ${hashed.bytes}); ` +
                `read it once it is complete`);
            return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
        }
        return { sha256: hashed.digest, nonBlankLines: splitter.nonBlankLines };
    }
    catch (e) {
        if (handlerFailed)
            throw handlerError;
        const code = errorCode(e);
        if (gunzip !== undefined && code === "ABORT_ERR") {
            // The gunzip stream ended (see above) while the file went on.
            const size = await fh.stat().then((st) => st.size, () => bytesRead);
            onProblem(undefined, trailingBytesMessage(gunzip.bytesWritten, size));
        }
        else if (gzip && code !== undefined && code.startsWith("Z_")) {
            onProblem(undefined, `could not decompress the gzip data (${errorMessage(e)}); the file is truncated or corrupt`);
        }
        else {
            onProblem(undefined, describeFsError(e));
        }
        return { sha256: undefined, nonBlankLines: splitter.nonBlankLines };
    }
    finally {
        // The worker reads through this fd: stop it before the fd is closed (and its number reused).
        // A handler that threw left the next chunk's read running: it must not outlive the fd (and
        // its failure is no one's to report). First, before anything else is awaited here.
        if (reading !== undefined)
            await reading.catch(() => undefined);
        if (pending !== undefined)
            await pending.cancel().catch(() => undefined);
        await fh.close().catch(() => undefined);
    }
}

;// CONCATENATED MODULE: ./src/read/range-read.ts
/**
 * Reading one plain results file in byte ranges on several threads (issue 15). The file is cut
 * at line ends into ranges; the main thread reads the first into the DatasetBuilder itself, and
 * each later range is read by a worker thread (src/range-worker.ts) from the same open file into
 * a builder of its own, whose state (range-merge.ts snapshotOf: typed arrays and arrays of strings,
 * posted once) the main thread then absorbs in range order. No line or row crosses threads.
 *
 * Each range is split with line-splitter.ts's LineSplitter, so its lines are exactly those a read of
 * the whole file gives (a range starts right after an LF: BOM, CR, blank and overlong lines come
 * out the same), numbered from 1 in a worker and moved by the lines of the earlier ranges when
 * absorbed. The main thread hashes the file meanwhile (see readInRanges).
 *
 * Only a clean range is absorbed. A worker that cannot start, dies, or finds a problem in its
 * range (the lines would be reported with their numbers) leaves its range to the main thread,
 * which reads it into the builder itself, in order, as a sequential read would. When absorbing
 * finds what a sequential read would have reported (range-merge.ts: a conflict across
 * ranges, a passed cap), or the file cannot be read or changes meanwhile, the builder is spoilt:
 * the caller reads every file again, one line after another ("restart"), for the exact messages.
 */








const DEFAULT_RANGE_MIN_BYTES = (/* unused pure expression or super */ null && (32 * 1024 * 1024));
/**
 * Tasks per part of a range's state. Posted whole, a task-heavy range's state (a string and
 * arrays a task) is decoded at once and outlives several collections before it is absorbed.
 */
const PART_TASKS = (/* unused pure expression or super */ null && (32 * 1024));
/**
 * ... and at most about this many attempt ids a part: a part's ids are posted in slabs of their
 * own and copied again into the main thread's pool, so an attempt-heavy range posted whole has
 * all of them in three places at once and grows the main thread's young generation. Smaller
 * parts cost no time; below this size they gain little memory (BENCHMARKS.md).
 */
const PART_ATTEMPT_IDS = 32 * 1024;
/** Tasks per part of a range of `tasks` tasks holding `ids` attempt ids (at most `partTasks`). */
function tasksPerPart(tasks, ids, partTasks) {
    const byIds = ids > 0 ? Math.floor((tasks * PART_ATTEMPT_IDS) / ids) : partTasks;
    return Math.max(1, Math.min(partTasks, byIds));
}
/**
 * A task-heavy export (each range holding most tasks again, for another model) costs more to
 * merge than to read, in CPU time and in memory. A worker past this many tasks stops, and the
 * main thread reads its range.
 */
const MAX_RANGE_TASKS = (/* unused pure expression or super */ null && (64 * 1024));
/**
 * Reads the bytes [start, end) of a file (end -1: to its end) as results lines into `builder`,
 * numbered after `lineNo` lines; the splitter's problems are the builder's. `stopPast` (a
 * worker's) ends the read at the first chunk after which the builder is no longer healthy or
 * holds more tasks or attempt ids (its range is then read again). `firstLine` (the first range's)
 * looks at the file's first line (FirstLineCheck). Read errors are thrown.
 */
async function readRange(read, start, end, lineNo, builder, fileIndex, stopPast, hash, firstLine) {
    const splitter = new line_splitter_LineSplitter({
        bytes: (bytes, begin, stop, line, flags) => {
            builder.addResultBytes(bytes, begin, stop, flags, fileIndex, line);
        },
    }, (line, message) => {
        builder.fileProblem(fileIndex, line, message);
    }, lineNo, firstLine);
    // Two buffers, used in turn, as file-stream.ts reads a whole file: the next chunk is read (on
    // libuv's thread pool, for the main thread) while this one is split, instead of waiting for
    // each read. The splitter copies what it carries, so a buffer is free again once push returns.
    let buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let spare = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    const wantAt = (at) => (end < 0 ? READ_CHUNK_BYTES : Math.min(READ_CHUNK_BYTES, end - at));
    let pos = start;
    let want = wantAt(pos);
    let next = want === 0 ? 0 : read(buffer, want, pos);
    let past;
    try {
        while (want > 0) {
            const n = await next;
            if (n === 0) {
                if (end >= 0)
                    throw new Error("the file ended before the range did");
                break;
            }
            pos += n;
            const chunk = buffer.subarray(0, n);
            [buffer, spare] = [spare, buffer];
            want = wantAt(pos);
            next = want === 0 ? 0 : read(buffer, want, pos);
            hash?.update(chunk);
            splitter.push(chunk);
            if (splitter.refused)
                break;
            if (stopPast === undefined)
                continue;
            if (!builder.healthy())
                break;
            // (Decided here: the half line the splitter still holds makes a line that is no task.)
            past = pastLimits(builder, stopPast, pos - start, splitter.nonBlankLines);
            if (past !== undefined)
                break;
        }
    }
    finally {
        // A read still in flight (the loop left early) ends before the caller may close the file.
        await Promise.resolve(next).catch(() => 0);
    }
    splitter.end();
    return {
        lines: splitter.lines,
        nonBlankLines: splitter.nonBlankLines,
        bytes: pos - start,
        halted: splitter.halted,
        refused: splitter.refused,
        ...(past === undefined ? {} : { past }),
    };
}
/**
 * An attempt-id limit is also taken as passed once the first PROJECT_AFTER_BYTES of the range,
 * scaled to all of it, hold more: attempt ids come with a compared model's rows, as a rule spread
 * through the file, and a range given back early costs little (the worker's start and 8 MiB read
 * on another core), where one given back late was read for nothing. A wrong guess only changes
 * who reads the range.
 */
const PROJECT_AFTER_BYTES = 8 * 1024 * 1024;
/**
 * Which limit the range's state has passed after `read` of its bytes and `lines` non-blank lines,
 * if any (for a note). Where an attempt-id limit is set (the default's, below 1 GiB), the task
 * limit is also taken as passed once the first PROJECT_AFTER_BYTES made a new task of every line
 * and, scaled to the range, would pass it (a task-heavy range given back late was read for
 * nothing, and its worker's heap lived on). Only there: tasks do not spread like attempt ids (a range may begin
 * with one model's pass over 50,000 tasks, then repeat them), and a wrong guess costs more on a
 * larger file, where ranges are most of the speed.
 */
function pastLimits(builder, limits, read, lines) {
    const tasks = builder.taskCount();
    const newEveryLine = limits.attemptIds < Infinity && read >= PROJECT_AFTER_BYTES && lines > 0 && tasks >= lines;
    if (tasks > limits.tasks || (newEveryLine && (tasks / read) * limits.bytes > limits.tasks))
        return `more than ${limits.tasks} tasks`;
    const ids = builder.heldAttemptIds();
    const projected = read >= PROJECT_AFTER_BYTES &&
        limits.attemptIds < Infinity &&
        (ids / read) * limits.bytes > limits.attemptIds;
    return ids > limits.attemptIds || projected ? `more than ${limits.attemptIds} attempt ids` : undefined;
}
/** Hashes the file from `start` to its end; returns the bytes hashed. */
async function hashRest(read, start, hash) {
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    let pos = start;
    for (;;) {
        const n = await read(buffer, buffer.length, pos);
        if (n === 0)
            return pos - start;
        hash.update(buffer.subarray(0, n));
        pos += n;
    }
}
/**
 * The first range (the main thread's) is the smaller: the main thread also hashes the whole file
 * and absorbs the others' state (with an even split it would wait for the worker).
 */
const FIRST_RANGE_SHARE = 0.4;
const WORKER_YOUNG_MB = 8;
function defaultCuts(size, n) {
    const first = n === 2 ? FIRST_RANGE_SHARE : 1 / n;
    return Array.from({ length: n - 1 }, (_, k) => Math.floor(size * (first + (k * (1 - first)) / (n - 1))));
}
/** How far past a cut the reader looks for the line end to cut at (a longer line is overlong anyway). */
const CUT_SEARCH_BYTES = (/* unused pure expression or super */ null && (2 * 1024 * 1024));
/**
 * Where the ranges start: 0, then just after the first LF at or after each k/n of the file. A cut
 * with no LF near it is dropped (its bytes join the range before).
 */
async function rangeStarts(fh, size, n, cuts = defaultCuts(size, n)) {
    const starts = [0];
    const window = Buffer.allocUnsafe(64 * 1024);
    for (const at of cuts) {
        const target = Math.max(at, (starts[starts.length - 1] ?? 0) + 1);
        let cut = -1;
        for (let pos = target - 1; cut < 0 && pos < size && pos < target + CUT_SEARCH_BYTES;) {
            const got = (await fh.read(window, 0, window.length, pos)).bytesRead;
            if (got === 0)
                break;
            const at = window.subarray(0, got).indexOf(0x0a);
            if (at >= 0)
                cut = pos + at + 1;
            pos += got;
        }
        if (cut > 0 && cut < size)
            starts.push(cut);
    }
    return starts;
}
function isRangeAnswer(m) {
    if (typeof m !== "object" || m === null)
        return false;
    if ("problem" in m)
        return m.problem === true;
    return "lines" in m && typeof m.lines === "number" && "parts" in m && typeof m.parts === "number";
}
function isPart(m) {
    return typeof m === "object" && m !== null && "part" in m && "snapshot" in m;
}
function startRange(script, task, onNote) {
    let worker;
    try {
        worker = new Worker(script, {
            workerData: task,
            // Its builder's state lives long: a small young generation keeps the peak RSS down.
            resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
        });
    }
    catch (e) {
        onNote(`cannot start a range reader (${e instanceof Error ? e.message : String(e)}); reading its range here`);
        return {
            answer: Promise.resolve(undefined),
            part: () => Promise.resolve(undefined),
            stop: () => Promise.resolve(),
        };
    }
    let settleAnswer;
    const answer = new Promise((settle) => {
        settleAnswer = settle;
    });
    let waiting;
    let dead = false;
    let stopping = false;
    const die = () => {
        dead = true;
        settleAnswer?.(undefined);
        waiting?.(undefined);
        waiting = undefined;
    };
    worker.on("message", (m) => {
        if (isPart(m)) {
            const settle = waiting;
            waiting = undefined;
            settle?.(m.snapshot);
        }
        else {
            const a = isRangeAnswer(m) ? m : undefined;
            settleAnswer?.(a);
            // A range given back: nothing more is asked of its worker, whose heap would otherwise live
            // on to the end of the first range's read.
            if (a !== undefined && "problem" in a) {
                stopping = true;
                void worker.terminate();
            }
        }
    });
    worker.once("error", (e) => {
        onNote(`a range reader failed (${e instanceof Error ? e.message : String(e)}); reading its range here`);
        die();
    });
    worker.once("exit", (code) => {
        if (!stopping && !dead)
            onNote(`a range reader exited with code ${code}; reading its range here`);
        die();
    });
    return {
        answer,
        part: (k) => dead
            ? Promise.resolve(undefined)
            : new Promise((settle) => {
                waiting = settle;
                worker.postMessage(k);
            }),
        stop: async () => {
            stopping = true;
            await worker.terminate();
        },
    };
}
/**
 * Returns once the reactions to `answer` registered before this call have run, if it is settled
 * already (a settled promise's reactions are queued before those of the race's second entry).
 */
async function settledYet(answer) {
    await Promise.race([answer, Promise.resolve()]);
}
/**
 * Reads the results file `abs` (plain, not gzip: the caller checks) in ranges into `builder`,
 * which holds what the files before it gave. Returns undefined, having read nothing, when the file
 * cannot be cut (it is then read whole as usual).
 */
async function readInRanges(abs, builder, task, options, onNote, firstLine) {
    let fh;
    try {
        fh = await open(abs, "r");
    }
    catch {
        return undefined;
    }
    const workers = [];
    let rehash;
    try {
        const size = (await fh.stat()).size;
        const starts = await rangeStarts(fh, size, options.ranges, options.cuts);
        if (starts.length < 2)
            return undefined;
        onNote(`reading ${task.fileNames[task.fileIndex] ?? "?"} in ${starts.length} byte ranges`);
        for (let k = 1; k < starts.length; k++) {
            const range = {
                ...task,
                fd: fh.fd,
                start: starts[k] ?? 0,
                end: starts[k + 1] ?? -1,
                partTasks: options.partTasks ?? PART_TASKS,
                maxTasks: options.maxTasks ?? MAX_RANGE_TASKS,
                maxAttemptIds: options.attemptLimit !== undefined && size < options.attemptLimit.belowBytes
                    ? options.attemptLimit.ids
                    : Infinity,
            };
            const elsewhere = options.readElsewhere;
            workers.push(elsewhere === undefined ? startRange(options.script, range, onNote) : elsewhere(range));
        }
        const open_ = fh;
        const read = async (buffer, length, position) => (await open_.read(buffer, 0, length, position)).bytesRead;
        // Hashed here: the first range as it is read, then the rest while the workers read it (this
        // thread has time then, and a hash thread would be a third on two cores).
        const hash = createHash("sha256");
        // A second range given back while the first is read (task- or attempt-heavy: RangeLimits) is
        // this thread's to read next: from then on the file is hashed on a thread of its own, from its
        // start, as a sequential read hashes it, and not here (where it would delay the read of the
        // range given back).
        let hashHere = true;
        let decided = false;
        const sink = {
            update: (chunk) => {
                if (hashHere)
                    hash.update(chunk);
            },
        };
        const second = workers.length === 1 ? workers[0]?.answer : undefined;
        void second?.then((answer) => {
            if (decided || (answer !== undefined && !("problem" in answer)))
                return;
            hashHere = false;
            rehash = (options.hashElsewhere ?? hashInWorker)(fh);
        });
        let done = await readRange(read, 0, starts[1] ?? -1, 0, builder, task.fileIndex, undefined, sink, firstLine);
        // Not JSON lines: the sequential read says so.
        if (done.refused)
            return "restart";
        if (second !== undefined && !done.halted)
            await settledYet(second);
        decided = true;
        let hashed = hashHere ? done.bytes + (await hashRest(read, done.bytes, hash)) : -1;
        let lines = done.lines;
        let nonBlankLines = done.nonBlankLines;
        let bytes = done.bytes;
        for (let k = 1; k < starts.length; k++) {
            if (done.halted)
                return "restart";
            const reader = workers[k - 1];
            const answer = await reader?.answer;
            if (reader !== undefined && answer !== undefined && !("problem" in answer) && builder.healthy()) {
                for (let part = 0; part < answer.parts; part++) {
                    const snapshot = await reader.part(part);
                    // Its last part in hand, the worker goes before that part is absorbed: its heap and the
                    // absorbed copy together would be the range read's peak.
                    if (part === answer.parts - 1)
                        await reader.stop();
                    // A reader that dies after a part was absorbed leaves the builder half merged.
                    if (snapshot === undefined || !builder.absorb(snapshot, lines))
                        return "restart";
                }
                lines += answer.lines;
                nonBlankLines += answer.nonBlankLines;
                bytes += answer.bytes;
                continue;
            }
            if (answer !== undefined && "problem" in answer) {
                onNote(`reading byte range ${k + 1} here: its reader found ${answer.why ?? "a problem"}`);
            }
            // Read here, in order: what a sequential read does (its problems with their line numbers).
            done = await readRange(read, starts[k] ?? 0, starts[k + 1] ?? -1, lines, builder, task.fileIndex);
            lines = done.lines;
            nonBlankLines += done.nonBlankLines;
            bytes += done.bytes;
        }
        let sha256;
        if (rehash !== undefined) {
            const whole = await rehash.result;
            rehash = undefined;
            if ("error" in whole)
                return "restart";
            hashed = whole.bytes;
            sha256 = whole.digest;
        }
        // A file that changed while it was read: the sequential read says so.
        if (hashed !== bytes)
            return "restart";
        return { sha256: sha256 ?? hash.digest("hex"), nonBlankLines };
    }
    catch {
        return "restart";
    }
    finally {
        // (Settled before the file is closed: the hash thread reads it by its fd.)
        await rehash?.cancel().catch(() => undefined);
        for (const w of workers)
            await w.stop().catch(() => undefined);
        await fh.close().catch(() => undefined);
    }
}
/**
 * The body of a range worker (src/range-worker.ts): reads its range into a builder of its own;
 * answers with what it read and the parts of the builder's state, or that the range has a problem.
 */
async function readRangeState(task, makeBuilder) {
    const builder = makeBuilder(task);
    const read = (buffer, length, position) => (0,external_node_fs_namespaceObject.readSync)(task.fd, buffer, 0, length, position);
    const bytes = (task.end < 0 ? (0,external_node_fs_namespaceObject.fstatSync)(task.fd).size : task.end) - task.start;
    const limits = { tasks: task.maxTasks, attemptIds: task.maxAttemptIds, bytes };
    const done = await readRange(read, task.start, task.end, 0, builder, task.fileIndex, limits);
    const past = done.past ?? pastLimits(builder, limits, done.bytes, done.nonBlankLines);
    if (!builder.healthy() || done.halted || past !== undefined) {
        return {
            answer: {
                problem: true,
                // (A read stopped at a limit may end in half a line: the limit is why.)
                why: past ?? "a problem in its range",
            },
            part: () => {
                throw new Error("range-read: a range with a problem has no state to post");
            },
        };
    }
    const tasks = builder.taskCount();
    const size = tasksPerPart(tasks, builder.heldAttemptIds(), task.partTasks);
    const parts = Math.max(1, Math.ceil(tasks / size));
    return {
        answer: { lines: done.lines, nonBlankLines: done.nonBlankLines, bytes: done.bytes, parts },
        part: (k) => {
            const snapshot = builder.snapshot(k * size, Math.min(tasks, (k + 1) * size), k === parts - 1);
            return { snapshot, transfer: (0,column_transfer/* columnBuffers */.Kp)(snapshot.cols) };
        },
    };
}


/***/ }),

/***/ 919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(985);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 

//# sourceMappingURL=range-worker.js.map
