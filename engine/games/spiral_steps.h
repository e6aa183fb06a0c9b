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

/* The board: steps along the lines and along the perimeter (as lists and as bitsets), and the exits. */
typedef struct {
    int n;
    int near_count[MAX_POINTS], perimeter_count[MAX_POINTS];
    uint8_t near[MAX_POINTS][MAX_NEAR], perimeter[MAX_POINTS][MAX_NEAR];
    Set near_mask[MAX_POINTS], perimeter_mask[MAX_POINTS];  /* one step from a point */
    Set near_into[MAX_POINTS], perimeter_into[MAX_POINTS];  /* the points one step from which is this one */
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

/* The lowest member of ``rest``, taken out of it; -1 when it is empty. */
static inline int pop_member(Set *rest) {
    for (int w = 0; w < 2; w++)
        if (rest->w[w]) {
            int i = w * 64 + __builtin_ctzll(rest->w[w]);
            rest->w[w] &= rest->w[w] - 1;
            return i;
        }
    return -1;
}

/* The pieces of ``mask`` reached from ``seeds`` along ``steps`` (one bitset per point), and in ``around``
 * every point one step from one of them. */
static Set flood(const Set *steps, Set mask, Set seeds, Set *around) {
    Set group = seeds, frontier = seeds, near = {{0, 0}};
    while (frontier.w[0] | frontier.w[1]) {
        Set grown = {{0, 0}};
        for (int p; (p = pop_member(&frontier)) >= 0;) {
            grown.w[0] |= steps[p].w[0];
            grown.w[1] |= steps[p].w[1];
        }
        near.w[0] |= grown.w[0];
        near.w[1] |= grown.w[1];
        for (int w = 0; w < 2; w++) {
            frontier.w[w] = grown.w[w] & mask.w[w] & ~group.w[w];
            group.w[w] |= frontier.w[w];
        }
    }
    *around = near;
    return group;
}

/* Every (landing << 7 | last) of a group, in (landing, last) order: each empty point one step from a piece
 * of the group (``steps``), with each such piece (``into``: the points one step from which is the landing). */
static int landing_codes(Set mask, Set group, Set around, const Set *into, int *codes) {
    int count = 0;
    Set empty = {{around.w[0] & ~mask.w[0], around.w[1] & ~mask.w[1]}};
    for (int to; (to = pop_member(&empty)) >= 0;) {
        Set lasts = {{group.w[0] & into[to].w[0], group.w[1] & into[to].w[1]}};
        for (int last; (last = pop_member(&lasts)) >= 0;) codes[count++] = to << 7 | last;
    }
    return count;
}

/* Appends the moves of ``mask`` to ``out`` as step codes, in the order of ``steps``; -1 when out of memory. */
static int spiral_steps(const SpiralBoard *board, Set mask, Codes *out) {
    /* a landing code per (piece, neighbour): the groups' together, and one exit piece's */
    int codes[MAX_POINTS * MAX_NEAR], group_codes[MAX_POINTS * MAX_NEAR];
    int group_start[MAX_POINTS + 1], groups = 0;
    Set group_of[MAX_POINTS];
    group_start[0] = 0;
    Set pieces = mask;
    for (int start; (start = pop_member(&pieces)) >= 0;) {
        if (board->is_exit[start]) {  /* along the perimeter, over the other pieces, alone */
            Set others = mask, around;
            others.w[start >> 6] &= ~((uint64_t)1 << (start & 63));
            Set seeds = {{board->perimeter_mask[start].w[0] & others.w[0],
                          board->perimeter_mask[start].w[1] & others.w[1]}};
            if (!(seeds.w[0] | seeds.w[1])) continue;  /* nothing beside it along the perimeter */
            Set crossed = flood(board->perimeter_mask, others, seeds, &around);
            int count = landing_codes(mask, crossed, around, board->perimeter_into, codes);
            if (codes_reserve(out, (size_t)count) < 0) return -1;
            for (int i = 0; i < count; i++) out->data[out->len++] = start << 14 | codes[i];
            continue;
        }
        if (!set_meets(board->near_mask[start], mask)) continue;  /* alone: nothing to pass over */
        int g = 0;
        while (g < groups && !set_has(&group_of[g], start)) g++;
        if (g == groups) {  /* its group's landings, worked out once */
            Set seeds = {{0, 0}}, around;
            set_add(&seeds, start);
            group_of[g] = flood(board->near_mask, mask, seeds, &around);
            group_start[g + 1] = group_start[g] + landing_codes(mask, group_of[g], around, board->near_into,
                                                                  group_codes + group_start[g]);
            groups++;
        }
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
    memset(board->near_mask, 0, sizeof board->near_mask);
    memset(board->perimeter_mask, 0, sizeof board->perimeter_mask);
    memset(board->near_into, 0, sizeof board->near_into);
    memset(board->perimeter_into, 0, sizeof board->perimeter_into);
    for (int p = 0; p < n; p++) {
        for (int i = 0; i < board->near_count[p]; i++) {
            set_add(&board->near_mask[p], board->near[p][i]);
            set_add(&board->near_into[board->near[p][i]], p);
        }
        for (int i = 0; i < board->perimeter_count[p]; i++) {
            set_add(&board->perimeter_mask[p], board->perimeter[p][i]);
            set_add(&board->perimeter_into[board->perimeter[p][i]], p);
        }
    }
    memset(board->is_exit, 0, sizeof board->is_exit);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(exits); i++) {
        long p = PyLong_AsLong(PyList_GET_ITEM(exits, i));
        if (p < 0 || p >= n) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Spiral: bad exit"); return -1; }
        board->is_exit[p] = 1;
    }
    return 0;
}

#endif
