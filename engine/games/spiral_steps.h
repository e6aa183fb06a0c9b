/* The Over-Pass Spiral's moves as (start, landing, last piece) codes, in the order of
 * ``OverPassSpiral.steps`` (engine/games/overpass_spiral.py, the definition).
 *
 * Shared by the C listing of move objects (engine/games/_spiral_fast.c) and the compiled
 * removal search (engine/solvers/_removal_fast.c).  A position is two 64-bit words; each group
 * of touching pieces is walked once, and every piece of a group off the exits sees its landings.
 */
#ifndef SPIRAL_STEPS_H
#define SPIRAL_STEPS_H

#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 128
#define MAX_NEAR 8

typedef struct { uint64_t w[2]; } Set;

static inline int set_has(const Set *s, int i) { return (int)(s->w[i >> 6] >> (i & 63) & 1); }
static inline void set_add(Set *s, int i) { s->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline int set_count(Set s) { return __builtin_popcountll(s.w[0]) + __builtin_popcountll(s.w[1]); }
static inline int set_equal(Set a, Set b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }
static inline int set_meets(Set a, Set b) { return (a.w[0] & b.w[0]) || (a.w[1] & b.w[1]); }

/* A step coded ``start << 14 | landing << 7 | last``. */
static inline int step_code(int start, int to, int last) { return start << 14 | to << 7 | last; }
static inline int step_start(int code) { return code >> 14; }
static inline int step_to(int code) { return code >> 7 & 127; }
static inline int step_last(int code) { return code & 127; }

/* The board: steps along the lines and along the perimeter, and the exits. */
typedef struct {
    int n;
    int near_count[MAX_POINTS], perimeter_count[MAX_POINTS];
    uint8_t near[MAX_POINTS][MAX_NEAR], perimeter[MAX_POINTS][MAX_NEAR];
    uint8_t is_exit[MAX_POINTS];
} SpiralBoard;

/* A growing list of ints (step codes). */
typedef struct { int *data; size_t len, cap; } Codes;

static int codes_reserve(Codes *c, size_t more) {
    if (c->len + more <= c->cap) return 0;
    size_t cap = c->cap ? c->cap : 1024;
    while (cap < c->len + more) cap *= 2;
    int *data = PyMem_Realloc(c->data, cap * sizeof(int));
    if (!data) { PyErr_NoMemory(); return -1; }
    c->data = data;
    c->cap = cap;
    return 0;
}

static int compare_ints(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* The pieces reached from ``seeds`` over pieces of ``mask`` along ``steps``: a group's flood. */
static void flood(const SpiralBoard *board, const Set *mask, Set seeds, const uint8_t (*steps)[MAX_NEAR],
                  const int *counts, int *order, int *size) {
    Set group = {{0, 0}};
    int head = 0;
    *size = 0;
    for (int p = 0; p < board->n; p++)
        if (set_has(&seeds, p)) { set_add(&group, p); order[(*size)++] = p; }
    while (head < *size) {
        int here = order[head++];
        for (int i = 0; i < counts[here]; i++) {
            int there = steps[here][i];
            if (set_has(mask, there) && !set_has(&group, there)) { set_add(&group, there); order[(*size)++] = there; }
        }
    }
}

/* Every (landing << 7 | last) for the pieces of a group, sorted: the empty points beside each
 * piece along ``steps``, leaving ``start`` out as a landing. */
static int landing_codes(const Set *mask, const int *members, int size, int start,
                         const uint8_t (*steps)[MAX_NEAR], const int *counts, int *codes) {
    int count = 0;
    for (int k = 0; k < size; k++) {
        int last = members[k];
        for (int i = 0; i < counts[last]; i++) {
            int to = steps[last][i];
            if (!set_has(mask, to) && to != start) codes[count++] = to << 7 | last;
        }
    }
    qsort(codes, (size_t)count, sizeof(int), compare_ints);
    return count;
}

/* Appends the moves of ``mask`` to ``out`` as step codes, in the order of ``steps``; -1 when out of memory. */
static int spiral_steps(const SpiralBoard *board, Set mask, Codes *out) {
    int group_of[MAX_POINTS], order[MAX_POINTS], size;
    /* a landing code per (piece, neighbour): the groups' together, and one exit piece's */
    int codes[MAX_POINTS * MAX_NEAR], group_codes[MAX_POINTS * MAX_NEAR];
    int group_start[MAX_POINTS + 1], groups = 0;
    for (int p = 0; p < board->n; p++) group_of[p] = -1;
    group_start[0] = 0;
    for (int start = 0; start < board->n; start++) {
        if (!set_has(&mask, start)) continue;
        if (board->is_exit[start]) {  /* along the perimeter, over the other pieces, alone */
            Set others = mask, seeds = {{0, 0}};
            others.w[start >> 6] &= ~((uint64_t)1 << (start & 63));
            for (int i = 0; i < board->perimeter_count[start]; i++)
                if (set_has(&others, board->perimeter[start][i])) set_add(&seeds, board->perimeter[start][i]);
            flood(board, &others, seeds, board->perimeter, board->perimeter_count, order, &size);
            int count = landing_codes(&mask, order, size, start, board->perimeter, board->perimeter_count, codes);
            if (codes_reserve(out, (size_t)count) < 0) return -1;
            for (int i = 0; i < count; i++) out->data[out->len++] = start << 14 | codes[i];
            continue;
        }
        int alone = 1;
        for (int i = 0; i < board->near_count[start]; i++)
            if (set_has(&mask, board->near[start][i])) alone = 0;
        if (alone) continue;
        if (group_of[start] < 0) {  /* its group's landings, worked out once */
            Set seeds = {{0, 0}};
            set_add(&seeds, start);
            flood(board, &mask, seeds, board->near, board->near_count, order, &size);
            int *into = group_codes + group_start[groups];
            int count = landing_codes(&mask, order, size, -1, board->near, board->near_count, into);
            for (int k = 0; k < size; k++) group_of[order[k]] = groups;
            group_start[groups + 1] = group_start[groups] + count;
            groups++;
        }
        int g = group_of[start];
        if (codes_reserve(out, (size_t)(group_start[g + 1] - group_start[g])) < 0) return -1;
        for (int i = group_start[g]; i < group_start[g + 1]; i++)
            if ((group_codes[i] & 127) != start) out->data[out->len++] = start << 14 | group_codes[i];
    }
    return 0;
}

static int read_steps(PyObject *lists, int n, int *counts, uint8_t (*rows)[MAX_NEAR], const char *what) {
    if (!PyList_Check(lists) || PyList_GET_SIZE(lists) != n) {
        PyErr_Format(PyExc_ValueError, "Spiral: %s must be a list of %d lists", what, n);
        return -1;
    }
    for (int p = 0; p < n; p++) {
        PyObject *row = PyList_GET_ITEM(lists, p);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) > MAX_NEAR) {
            PyErr_Format(PyExc_ValueError, "Spiral: %s[%d] must be a list of at most %d indices", what, p, MAX_NEAR);
            return -1;
        }
        counts[p] = (int)PyList_GET_SIZE(row);
        for (int i = 0; i < counts[p]; i++) {
            long v = PyLong_AsLong(PyList_GET_ITEM(row, i));
            if (v < 0 || v >= n) {
                if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "Spiral: %s[%d] holds %ld", what, p, v);
                return -1;
            }
            rows[p][i] = (uint8_t)v;
        }
    }
    return 0;
}

/* The board from Python lists: ``near`` and ``perimeter`` (the indices one step away from each
 * intersection along the lines, along the perimeter) and ``exits`` (indices). */
static int read_board(SpiralBoard *board, PyObject *near, PyObject *perimeter, PyObject *exits) {
    if (!PyList_Check(near) || !PyList_Check(exits)) {
        PyErr_SetString(PyExc_TypeError, "Spiral: near and exits must be lists");
        return -1;
    }
    int n = board->n = (int)PyList_GET_SIZE(near);
    if (n > MAX_POINTS) {
        PyErr_Format(PyExc_ValueError, "Spiral: at most %d intersections", MAX_POINTS);
        return -1;
    }
    if (read_steps(near, n, board->near_count, board->near, "near") < 0 ||
        read_steps(perimeter, n, board->perimeter_count, board->perimeter, "perimeter") < 0)
        return -1;
    memset(board->is_exit, 0, sizeof board->is_exit);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(exits); i++) {
        long p = PyLong_AsLong(PyList_GET_ITEM(exits, i));
        if (p < 0 || p >= n) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Spiral: bad exit"); return -1; }
        board->is_exit[p] = 1;
    }
    return 0;
}

#endif
