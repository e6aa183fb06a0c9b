/* The removal puzzles' depth-first search, compiled, on the Over-Pass Spiral's moves.
 *
 * ``RemovalSearch`` (engine/solvers/removal.py) is the definition and this is the same search
 * step for step: the same moves in the same order (fewest stranded pieces after, then landing
 * nearest the centre, ties in the order of ``steps``), the same probes, the same memo of failed
 * positions (canonical keys when the start is symmetric, the position itself otherwise; it stays
 * from one ``run`` to the next), the same endgame table look-ups, the same best position, and
 * the same count of positions, so the same answer and the same path.
 * tests/engine/test_removal_fast.py holds the two to that.  The clock is Python's: every
 * ``check_every`` positions the search calls ``tick(positions, best_pieces)``, and stops when it
 * says so (the solvers' clock is swappable; the tests use fake ones).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include "spiral_steps.h"

#define MAX_SYMMETRIES 8
#define MAX_PROBES 8
#define MAX_TABLE_PIECES 12
#define NO_LIMIT INT64_MAX

/* What a search of a position found: ``_search``'s False, True and None, and the end of the run
 * (out of time, or an error raised in Python). */
enum { FAILS, SOLVED, GAVE_UP, ABORTED };

/* The memo: an open-addressed set of positions (the empty position kept aside, as the empty slot). */
typedef struct { Set *slots; size_t cap, count; int has_empty; } Memo;

static inline size_t memo_slot(const Memo *memo, Set key) {
    uint64_t h = key.w[0] * 0x9E3779B97F4A7C15ULL ^ (key.w[1] + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return (size_t)(h ^ h >> 29) & (memo->cap - 1);
}

static int memo_has(const Memo *memo, Set key) {
    if (!key.w[0] && !key.w[1]) return memo->has_empty;
    if (!memo->cap) return 0;
    for (size_t i = memo_slot(memo, key);; i = (i + 1) & (memo->cap - 1)) {
        if (set_equal(memo->slots[i], key)) return 1;
        if (!memo->slots[i].w[0] && !memo->slots[i].w[1]) return 0;
    }
}

/* Asks the memory for the slot where ``key`` would be (a child's look-up otherwise waits for it). */
static inline void memo_prefetch(const Memo *memo, Set key) {
    if (memo->cap) __builtin_prefetch(&memo->slots[memo_slot(memo, key)]);
}

static void memo_put(Memo *memo, Set key) {  /* a key not yet held, with room for it */
    size_t i = memo_slot(memo, key);
    while (memo->slots[i].w[0] || memo->slots[i].w[1]) i = (i + 1) & (memo->cap - 1);
    memo->slots[i] = key;
}

static int memo_add(Memo *memo, Set key) {
    if (!key.w[0] && !key.w[1]) {
        memo->count += !memo->has_empty;
        memo->has_empty = 1;
        return 0;
    }
    if (2 * (memo->count + 1) > memo->cap) {  /* at most half full */
        Memo grown = {PyMem_Calloc(memo->cap ? 2 * memo->cap : 1 << 16, sizeof(Set)),
                      memo->cap ? 2 * memo->cap : 1 << 16, memo->count, memo->has_empty};
        if (!grown.slots) { PyErr_NoMemory(); return -1; }
        for (size_t i = 0; i < memo->cap; i++)
            if (memo->slots[i].w[0] || memo->slots[i].w[1]) memo_put(&grown, memo->slots[i]);
        PyMem_Free(memo->slots);
        *memo = grown;
    }
    memo_put(memo, key);
    memo->count++;
    return 0;
}

/* A move to search: the position after it, its memo key, and its place in the order. */
typedef struct {
    Set mask, key;
    int step;
    uint64_t order;  /* stranded pieces << 40 | landing's distance rank << 32 | place in the listing */
} Child;

typedef struct {
    PyObject_HEAD
    /* the puzzle */
    SpiralBoard board;
    int symmetries;
    uint8_t perm[MAX_SYMMETRIES][MAX_POINTS];
    uint8_t distance_rank[MAX_POINTS];  /* the centre distances' order (equal distances, equal ranks) */
    int ring_count;
    Set rings[MAX_POINTS + 1];
    Set centre;
    int centre_mode, any_single;        /* the goal: the centre; or (any_single) one piece anywhere too */
    /* the endgame table: sorted colex ranks of its canonical positions */
    int table_pieces, table_on;
    Py_buffer ranks;
    uint64_t comb[MAX_POINTS][MAX_TABLE_PIECES + 1];
    /* one run's settings */
    int symmetric_keys, probe_count;
    int probe_pieces[MAX_PROBES];
    int64_t probe_budget[MAX_PROBES], check_every;
    size_t memo_limit;
    PyObject *tick;
    /* what the search knows and where it is */
    Memo memo;
    long long positions;
    int path[MAX_POINTS], depth;
    int best_pieces, best_off_centre, best_path[MAX_POINTS], best_depth;
    Set best_mask;
    Codes listing;
    Child *children;  /* a stack: each open position's moves */
    size_t children_len, children_cap;
} Search;

static inline Set after(Set mask, int step) {
    int bits[3] = {step_start(step), step_to(step), step_last(step)};
    for (int i = 0; i < 3; i++) mask.w[bits[i] >> 6] ^= (uint64_t)1 << (bits[i] & 63);
    return mask;
}

static inline int less(Set a, Set b) { return a.w[1] != b.w[1] ? a.w[1] < b.w[1] : a.w[0] < b.w[0]; }

/* ``mask`` under each symmetry, in their order. */
static void images(const Search *self, Set mask, Set *out) {
    memset(out, 0, sizeof(Set) * (size_t)self->symmetries);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = mask.w[w]; bits; bits &= bits - 1) {
            int i = w * 64 + __builtin_ctzll(bits);
            for (int s = 0; s < self->symmetries; s++) set_add(&out[s], self->perm[s][i]);
        }
}

static Set canonical(const Search *self, Set mask) {
    Set found[MAX_SYMMETRIES], least;
    images(self, mask, found);
    least = found[0];
    for (int s = 1; s < self->symmetries; s++)
        if (less(found[s], least)) least = found[s];
    return least;
}

static int symmetric(const Search *self, Set mask) {
    Set found[MAX_SYMMETRIES];
    int same = 0;
    images(self, mask, found);
    for (int s = 0; s < self->symmetries; s++) same += set_equal(found[s], mask);
    return same > 1;
}

static inline Set key_of(const Search *self, Set mask) { return self->symmetric_keys ? canonical(self, mask) : mask; }

static inline int is_goal(const Search *self, Set mask) { return set_equal(mask, self->centre); }

static inline int reached(const Search *self, Set mask) {
    return is_goal(self, mask) || (self->any_single && set_count(mask) == 1);
}

static int may_reach_centre(const Search *self, Set mask, int pieces) {
    if (!pieces) return 0;
    return set_meets(mask, self->rings[pieces - 1 < self->ring_count - 1 ? pieces - 1 : self->ring_count - 1]);
}

static int stranded(const Search *self, Set mask) {
    int count = 0;  /* word by word: the search's hottest loop */
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = mask.w[w]; bits; bits &= bits - 1)
            count += !set_meets(mask, self->board.near_mask[w * 64 + __builtin_ctzll(bits)]);
    return count;
}

static int in_table(const Search *self, Set mask) {
    Set least = canonical(self, mask);
    uint64_t rank = 0;
    int k = 1;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = least.w[w]; bits; bits &= bits - 1) rank += self->comb[w * 64 + __builtin_ctzll(bits)][k++];
    const uint64_t *ranks = self->ranks.buf;
    size_t low = 0, high = (size_t)self->ranks.len / 8;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (ranks[mid] < rank) low = mid + 1; else high = mid;
    }
    return low < (size_t)self->ranks.len / 8 && ranks[low] == rank;
}

/* Keeps ``mask`` as the best position found if it is (the path to it is the current one). */
static void note(Search *self, Set mask) {
    int pieces = set_count(mask), off = !is_goal(self, mask);
    if (pieces < self->best_pieces || (pieces == self->best_pieces && off < self->best_off_centre)) {
        self->best_pieces = pieces;
        self->best_off_centre = off;
        self->best_mask = mask;
        self->best_depth = self->depth;
        memcpy(self->best_path, self->path, sizeof(int) * (size_t)self->depth);
    }
}

/* Whether the search must end: Python's clock, asked through ``tick``; -1 on an error. */
static int time_up(Search *self) {
    PyObject *said = PyObject_CallFunction(self->tick, "Li", self->positions, self->best_pieces);
    if (!said) return -1;
    int up = PyObject_IsTrue(said);
    Py_DECREF(said);
    return up;
}

static int reserve_children(Search *self, size_t more) {
    if (self->children_len + more <= self->children_cap) return 0;
    size_t cap = self->children_cap ? self->children_cap : 4096;
    while (cap < self->children_len + more) cap *= 2;
    Child *grown = PyMem_Realloc(self->children, cap * sizeof(Child));
    if (!grown) { PyErr_NoMemory(); return -1; }
    self->children = grown;
    self->children_cap = cap;
    return 0;
}

/* Lists the moves of ``mask`` onto the children's stack as they come; -1 when out of memory. */
static int push_moves(Search *self, Set mask) {
    self->listing.len = 0;
    if (spiral_steps(&self->board, mask, &self->listing) < 0 || reserve_children(self, self->listing.len) < 0)
        return -1;
    for (size_t i = 0; i < self->listing.len; i++) {
        Child *child = &self->children[self->children_len++];
        child->step = self->listing.data[i];
        child->mask = after(mask, child->step);
    }
    return 0;
}

static int compare_children(const void *a, const void *b) {
    uint64_t x = ((const Child *)a)->order, y = ((const Child *)b)->order;
    return (x > y) - (x < y);
}

/* ``_ordered``: the moves to positions not yet known to fail, most promising first. */
static int push_ordered(Search *self, Set mask) {
    size_t base = self->children_len;
    if (push_moves(self, mask) < 0) return -1;
    for (size_t i = base; i < self->children_len; i++) {  /* the memo's slots asked for all at once */
        self->children[i].key = key_of(self, self->children[i].mask);
        memo_prefetch(&self->memo, self->children[i].key);
    }
    size_t kept = base;
    for (size_t i = base; i < self->children_len; i++) {
        Child child = self->children[i];
        if (memo_has(&self->memo, child.key)) continue;
        child.order = (uint64_t)stranded(self, child.mask) << 40 |
                      (uint64_t)self->distance_rank[step_to(child.step)] << 32 | (uint64_t)(i - base);
        self->children[kept++] = child;
    }
    self->children_len = kept;
    if (kept - base > 1) qsort(self->children + base, kept - base, sizeof(Child), compare_children);
    return 0;
}

/* The row of the probes for a position of ``pieces`` pieces (the last whose threshold it meets) when it
 * is among the first ``rows``; otherwise -1. */
static int probe_row(const Search *self, int pieces, int rows) {
    for (int k = self->probe_count - 1; k >= 0; k--)
        if (pieces >= self->probe_pieces[k]) return k < rows ? k : -1;
    return -1;
}

static int search(Search *self, Set mask, int64_t limit, int rows);

/* ``_into_table``: whether a move leads into the table's winning positions, and the way on from there. */
static int into_table(Search *self, Set mask) {
    size_t base = self->children_len;
    if (push_moves(self, mask) < 0) return ABORTED;
    size_t end = self->children_len;
    for (size_t i = base; i < end; i++) {
        Set child = self->children[i].mask, known = key_of(self, child);
        if (memo_has(&self->memo, known)) continue;
        self->path[self->depth++] = self->children[i].step;
        if (in_table(self, child)) {
            self->table_on = 0;  /* the few moves left are searched plainly */
            int found = search(self, child, NO_LIMIT, self->probe_count);
            self->table_on = 1;
            if (found == SOLVED || found == ABORTED) return found;
        } else if (self->memo.count < self->memo_limit && memo_add(&self->memo, known) < 0) {
            return ABORTED;
        }
        note(self, child);
        self->depth--;
    }
    self->children_len = base;
    return FAILS;
}

/* ``_search``: whether ``mask`` leads to the goal (the path to it then in ``path``); GAVE_UP when the search
 * passed ``limit`` positions before it could say.  Only positions proved to fail go into the memo. */
static int search(Search *self, Set mask, int64_t limit, int rows) {
    int pieces = set_count(mask);
    if (pieces <= self->best_pieces) note(self, mask);
    if (reached(self, mask)) return SOLVED;
    if (self->centre_mode && !may_reach_centre(self, mask, pieces)) return FAILS;
    Set key = key_of(self, mask);
    if (memo_has(&self->memo, key)) return FAILS;
    self->positions++;
    if (self->positions % self->check_every == 0) {
        int up = time_up(self);
        if (up) return ABORTED;  /* out of time, or an error in Python */
    }
    if (self->positions > limit) return GAVE_UP;
    size_t base = self->children_len;
    if (self->table_on && pieces == self->table_pieces + 1) {
        int found = into_table(self, mask);
        if (found != FAILS) return found;
    } else if (push_ordered(self, mask) < 0) {
        return ABORTED;
    }
    size_t end = self->children_len;
    int row = probe_row(self, pieces, rows);
    if (row >= 0 && end - base > 1) {  /* each move first with a search that may give up */
        int64_t budget = self->probe_budget[row];
        for (size_t i = base; i < end; i++) {
            self->path[self->depth++] = self->children[i].step;
            int64_t probe = self->positions + budget;
            int found = search(self, self->children[i].mask, probe < limit ? probe : limit, row);
            if (found == SOLVED || found == ABORTED) return found;
            self->depth--;
            if (self->positions > limit) { self->children_len = base; return GAVE_UP; }
        }
        size_t kept = base;
        for (size_t i = base; i < end; i++)
            if (!memo_has(&self->memo, self->children[i].key)) self->children[kept++] = self->children[i];
        end = self->children_len = kept;
    }
    for (size_t i = base; i < end; i++) {
        self->path[self->depth++] = self->children[i].step;
        int found = search(self, self->children[i].mask, limit, rows);
        if (found == SOLVED || found == ABORTED) return found;
        self->depth--;
        if (found == GAVE_UP) { self->children_len = base; return GAVE_UP; }  /* past the same limit */
    }
    self->children_len = base;
    if (self->memo.count < self->memo_limit && memo_add(&self->memo, key) < 0) return ABORTED;
    return FAILS;
}

/* Python ints (bitsets of up to 128 intersections) to and from Sets. */
static int read_set(PyObject *number, Set *out) {
    PyObject *shift = PyLong_FromLong(64), *high = shift ? PyNumber_Rshift(number, shift) : NULL;
    Py_XDECREF(shift);
    if (!high) return -1;
    out->w[1] = PyLong_AsUnsignedLongLong(high);  /* OverflowError past 128 bits or below 0 */
    Py_DECREF(high);
    if (PyErr_Occurred()) return -1;
    out->w[0] = PyLong_AsUnsignedLongLongMask(number);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *set_to_int(Set s) {
    PyObject *high = PyLong_FromUnsignedLongLong(s.w[1]), *low = PyLong_FromUnsignedLongLong(s.w[0]);
    PyObject *shift = PyLong_FromLong(64), *moved = NULL, *joined = NULL;
    if (high && low && shift) moved = PyNumber_Lshift(high, shift);
    if (moved) joined = PyNumber_Or(moved, low);
    Py_XDECREF(high);
    Py_XDECREF(low);
    Py_XDECREF(shift);
    Py_XDECREF(moved);
    return joined;
}

static int read_ints(PyObject *list, int count, int below, int *out, const char *what) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != count) {
        PyErr_Format(PyExc_ValueError, "Search: %s must be a list of %d ints", what, count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (v < 0 || v >= below) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "Search: %s[%d] is %ld, not below %d", what, i, v, below);
            return -1;
        }
        out[i] = (int)v;
    }
    return 0;
}

static int Search_init(Search *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"near", "perimeter", "exits", "symmetries", "distance_ranks", "rings", "goal",
                            "centre", "any_single", "table_pieces", "table_ranks", NULL};
    PyObject *near, *perimeter, *exits, *perms, *ranks, *rings, *table_ranks = Py_None;
    int goal, centre, any_single, table_pieces = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO!O!O!ipp|iO", names, &near, &perimeter, &exits, &PyList_Type,
                                     &perms, &PyList_Type, &ranks, &PyList_Type, &rings, &goal, &centre, &any_single,
                                     &table_pieces, &table_ranks))
        return -1;
    if (self->memo.slots || self->ranks.obj) {
        PyErr_SetString(PyExc_RuntimeError, "Search: already set up");
        return -1;
    }
    if (read_board(&self->board, near, perimeter, exits) < 0) return -1;
    int n = self->board.n, values[MAX_POINTS];
    self->symmetries = (int)PyList_GET_SIZE(perms);
    if (self->symmetries < 1 || self->symmetries > MAX_SYMMETRIES) {
        PyErr_Format(PyExc_ValueError, "Search: 1 to %d symmetries (the identity first)", MAX_SYMMETRIES);
        return -1;
    }
    for (int s = 0; s < self->symmetries; s++) {
        if (read_ints(PyList_GET_ITEM(perms, s), n, n, values, "symmetries[s]") < 0) return -1;
        for (int p = 0; p < n; p++) self->perm[s][p] = (uint8_t)values[p];
    }
    if (read_ints(ranks, n, 256, values, "distance_ranks") < 0) return -1;
    for (int p = 0; p < n; p++) self->distance_rank[p] = (uint8_t)values[p];
    self->ring_count = (int)PyList_GET_SIZE(rings);
    if (self->ring_count < 1 || self->ring_count > MAX_POINTS + 1) {
        PyErr_SetString(PyExc_ValueError, "Search: rings must list 1 to 129 bitsets");
        return -1;
    }
    for (int r = 0; r < self->ring_count; r++)
        if (read_set(PyList_GET_ITEM(rings, r), &self->rings[r]) < 0) return -1;
    if (goal < 0 || goal >= n) {
        PyErr_Format(PyExc_ValueError, "Search: goal %d is not an intersection", goal);
        return -1;
    }
    self->centre = (Set){{0, 0}};
    set_add(&self->centre, goal);
    self->centre_mode = centre;
    self->any_single = any_single;
    if (table_ranks != Py_None) {
        if (table_pieces < 1 || table_pieces > MAX_TABLE_PIECES) {
            PyErr_Format(PyExc_ValueError, "Search: a table of 1 to %d pieces", MAX_TABLE_PIECES);
            return -1;
        }
        if (PyObject_GetBuffer(table_ranks, &self->ranks, PyBUF_FORMAT) < 0) return -1;
        if (self->ranks.itemsize != 8 || !self->ranks.format || strcmp(self->ranks.format, "Q") != 0) {
            PyBuffer_Release(&self->ranks);
            PyErr_SetString(PyExc_ValueError, "Search: table_ranks must be an array('Q')");
            return -1;
        }
        for (int i = 0; i < n; i++)  /* comb(i, k), as engine.solvers.endgame.binomials */
            for (int k = 0; k <= table_pieces; k++)
                self->comb[i][k] = k == 0 ? 1 : i == 0 ? 0 : self->comb[i - 1][k - 1] + self->comb[i - 1][k];
        self->table_pieces = table_pieces;
    }
    return 0;
}

static PyObject *Search_run(Search *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"start", "tick", "probes", "check_every", "memo_limit", NULL};
    PyObject *start_int, *tick, *probes;
    long long check_every, memo_limit;
    Set start;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO!LL", names, &start_int, &tick, &PyTuple_Type, &probes,
                                     &check_every, &memo_limit) || read_set(start_int, &start) < 0)
        return NULL;
    if (check_every < 1 || memo_limit < 0 || PyTuple_GET_SIZE(probes) > MAX_PROBES) {
        PyErr_Format(PyExc_ValueError, "Search.run: check_every >= 1, memo_limit >= 0, at most %d probes", MAX_PROBES);
        return NULL;
    }
    self->probe_count = (int)PyTuple_GET_SIZE(probes);
    for (int k = 0; k < self->probe_count; k++) {
        long long pieces, budget;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(probes, k), "LL", &pieces, &budget)) return NULL;
        self->probe_pieces[k] = (int)pieces;
        self->probe_budget[k] = budget;
    }
    self->check_every = check_every;
    self->memo_limit = (size_t)memo_limit;
    self->tick = tick;
    self->symmetric_keys = symmetric(self, start);
    self->table_on = self->ranks.obj != NULL;
    self->depth = self->best_depth = 0;
    self->children_len = 0;
    self->best_pieces = set_count(start);
    self->best_off_centre = !is_goal(self, start);
    self->best_mask = start;
    int found = search(self, start, NO_LIMIT, self->probe_count);
    self->tick = NULL;
    if (PyErr_Occurred()) return NULL;
    PyObject *path = PyList_New(self->best_depth), *best = set_to_int(self->best_mask);
    for (int i = 0; path && i < self->best_depth; i++) {
        int step = self->best_path[i];
        PyObject *item = Py_BuildValue("(iii)", step_start(step), step_to(step), step_last(step));
        if (!item) Py_CLEAR(path); else PyList_SET_ITEM(path, i, item);
    }
    PyObject *result = path && best ? Py_BuildValue("(OOOO)", found == SOLVED ? Py_True : Py_False,
                                                    found == FAILS ? Py_True : Py_False, path, best) : NULL;
    Py_XDECREF(path);
    Py_XDECREF(best);
    return result;
}

static PyObject *Search_remembered(Search *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(self->memo.count);
}

static void Search_dealloc(Search *self) {
    PyMem_Free(self->memo.slots);
    PyMem_Free(self->listing.data);
    PyMem_Free(self->children);
    if (self->ranks.obj) PyBuffer_Release(&self->ranks);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     "run(start, tick, probes, check_every, memo_limit) -> (solved, exhausted, path, best_mask): a search from "
     "the bitset start; tick(positions, best_pieces) every check_every positions ends it when true."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Search_members[] = {
    {"positions", T_LONGLONG, offsetof(Search, positions), READONLY, "positions searched, over every run"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"remembered", (getter)Search_remembered, NULL, "how many failed positions the memo holds", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.solvers._removal_fast.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "RemovalSearch's depth-first search on the Over-Pass Spiral's moves, its memo kept between runs.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_members = Search_members,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_removal_fast",
    "The removal search on the Over-Pass Spiral, compiled (engine/solvers/removal.py is the definition).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__removal_fast(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
