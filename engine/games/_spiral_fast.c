/* The Over-Pass Spiral's moves in C: ``OverPassSpiral.steps`` (engine/games/overpass_spiral.py,
 * the definition) made into move objects, in the same order.
 *
 * A position lists a few hundred moves; Python spends most of its time walking the groups of
 * touching pieces and handing out one move per (start, landing, last piece).  Here a position is
 * two 64-bit words, each group is walked once, and each move object is asked of Python once
 * (``make(start, landing, last)``) and kept.  tests/engine/test_spiral_fast.py checks the lists
 * against ``steps`` on many positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 128
#define MAX_NEAR 8

typedef struct { uint64_t w[2]; } Set;

static inline int set_has(const Set *s, int i) { return (int)(s->w[i >> 6] >> (i & 63) & 1); }
static inline void set_add(Set *s, int i) { s->w[i >> 6] |= (uint64_t)1 << (i & 63); }

typedef struct {
    PyObject_HEAD
    int n;
    int near_count[MAX_POINTS], perimeter_count[MAX_POINTS];
    uint8_t near[MAX_POINTS][MAX_NEAR], perimeter[MAX_POINTS][MAX_NEAR];
    uint8_t is_exit[MAX_POINTS];
    int8_t slot[MAX_POINTS][MAX_POINTS];  /* slot[to][last]: last's place among to's neighbours */
    PyObject *make;
    PyObject **moves[MAX_POINTS];          /* moves[start][to * MAX_NEAR + slot], made on demand */
} Spiral;

static int compare_codes(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* The move of a (start, landing, last piece), made by Python the first time. */
static PyObject *move_of(Spiral *self, int start, int to, int last) {
    if (!self->moves[start]) {
        self->moves[start] = PyMem_Calloc((size_t)self->n * MAX_NEAR, sizeof(PyObject *));
        if (!self->moves[start]) return PyErr_NoMemory();
    }
    PyObject **kept = &self->moves[start][to * MAX_NEAR + self->slot[to][last]];
    if (!*kept) *kept = PyObject_CallFunction(self->make, "iii", start, to, last);
    return *kept;
}

/* The pieces reached from ``seeds`` over pieces of ``mask`` along ``steps``: a group's flood. */
static Set flood(const Spiral *self, const Set *mask, Set seeds, const uint8_t (*steps)[MAX_NEAR],
                 const int *counts, int *order, int *size) {
    Set group = {{0, 0}};
    int head = 0;
    *size = 0;
    for (int p = 0; p < self->n; p++)
        if (set_has(&seeds, p)) { set_add(&group, p); order[(*size)++] = p; }
    while (head < *size) {
        int here = order[head++];
        for (int i = 0; i < counts[here]; i++) {
            int there = steps[here][i];
            if (set_has(mask, there) && !set_has(&group, there)) { set_add(&group, there); order[(*size)++] = there; }
        }
    }
    return group;
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
    qsort(codes, (size_t)count, sizeof(int), compare_codes);
    return count;
}

static int append(Spiral *self, PyObject *list, int start, int code) {
    PyObject *move = move_of(self, start, code >> 7, code & 127);
    return move ? PyList_Append(list, move) : -1;
}

static PyObject *Spiral_moves(Spiral *self, PyObject *args) {
    unsigned long long low, high;
    if (!PyArg_ParseTuple(args, "KK", &low, &high)) return NULL;
    Set mask = {{low, high}};
    int group_of[MAX_POINTS], order[MAX_POINTS], size;
    /* a landing code per (piece, neighbour): the groups' together, and one exit piece's */
    int codes[MAX_POINTS * MAX_NEAR], group_codes[MAX_POINTS * MAX_NEAR];
    int group_start[MAX_POINTS + 1], groups = 0;
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int p = 0; p < self->n; p++) group_of[p] = -1;
    group_start[0] = 0;
    for (int start = 0; start < self->n && list; start++) {
        if (!set_has(&mask, start)) continue;
        if (self->is_exit[start]) {  /* along the perimeter, over the other pieces, alone */
            Set others = mask, seeds = {{0, 0}};
            others.w[start >> 6] &= ~((uint64_t)1 << (start & 63));
            for (int i = 0; i < self->perimeter_count[start]; i++)
                if (set_has(&others, self->perimeter[start][i])) set_add(&seeds, self->perimeter[start][i]);
            flood(self, &others, seeds, self->perimeter, self->perimeter_count, order, &size);
            int count = landing_codes(&mask, order, size, start, self->perimeter, self->perimeter_count, codes);
            for (int i = 0; i < count && list; i++)
                if (append(self, list, start, codes[i]) < 0) Py_CLEAR(list);
            continue;
        }
        int alone = 1;
        for (int i = 0; i < self->near_count[start]; i++)
            if (set_has(&mask, self->near[start][i])) alone = 0;
        if (alone) continue;
        if (group_of[start] < 0) {  /* its group's landings, worked out once */
            Set seeds = {{0, 0}};
            set_add(&seeds, start);
            flood(self, &mask, seeds, self->near, self->near_count, order, &size);
            int *into = group_codes + group_start[groups];
            int count = landing_codes(&mask, order, size, -1, self->near, self->near_count, into);
            for (int k = 0; k < size; k++) group_of[order[k]] = groups;
            group_start[groups + 1] = group_start[groups] + count;
            groups++;
        }
        int g = group_of[start];
        for (int i = group_start[g]; i < group_start[g + 1] && list; i++)
            if ((group_codes[i] & 127) != start && append(self, list, start, group_codes[i]) < 0) Py_CLEAR(list);
    }
    return list;
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

static int Spiral_init(Spiral *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"near", "perimeter", "exits", "make", NULL};
    PyObject *near, *perimeter, *exits, *make;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!O!O", names, &PyList_Type, &near, &PyList_Type, &perimeter,
                                     &PyList_Type, &exits, &make))
        return -1;
    int n = self->n = (int)PyList_GET_SIZE(near);
    if (n > MAX_POINTS) {
        PyErr_Format(PyExc_ValueError, "Spiral: at most %d intersections", MAX_POINTS);
        return -1;
    }
    if (read_steps(near, n, self->near_count, self->near, "near") < 0 ||
        read_steps(perimeter, n, self->perimeter_count, self->perimeter, "perimeter") < 0)
        return -1;
    memset(self->slot, 0, sizeof self->slot);
    for (int to = 0; to < n; to++)
        for (int i = 0; i < self->near_count[to]; i++) self->slot[to][self->near[to][i]] = (int8_t)i;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(exits); i++) {
        long p = PyLong_AsLong(PyList_GET_ITEM(exits, i));
        if (p < 0 || p >= n) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Spiral: bad exit"); return -1; }
        self->is_exit[p] = 1;
    }
    Py_INCREF(make);
    Py_XSETREF(self->make, make);
    return 0;
}

static void Spiral_dealloc(Spiral *self) {
    for (int s = 0; s < MAX_POINTS; s++)
        if (self->moves[s]) {
            for (int i = 0; i < self->n * MAX_NEAR; i++) Py_XDECREF(self->moves[s][i]);
            PyMem_Free(self->moves[s]);
        }
    Py_XDECREF(self->make);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Spiral_methods[] = {
    {"moves", (PyCFunction)Spiral_moves, METH_VARARGS,
     "moves(low, high): the moves of the position whose bitset is high << 64 | low, in the order of steps."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SpiralType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.games._spiral_fast.Spiral",
    .tp_basicsize = sizeof(Spiral),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The Spiral's board (steps along the lines and the perimeter, the exits) and its moves made so far.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Spiral_init,
    .tp_dealloc = (destructor)Spiral_dealloc,
    .tp_methods = Spiral_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_spiral_fast", "The Over-Pass Spiral's moves in C (overpass_spiral.py is the definition).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__spiral_fast(void) {
    if (PyType_Ready(&SpiralType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SpiralType);
    if (PyModule_AddObject(m, "Spiral", (PyObject *)&SpiralType) < 0) {
        Py_DECREF(&SpiralType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
