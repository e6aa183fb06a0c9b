/* The Over-Pass Spiral's moves in C: ``OverPassSpiral.steps`` (engine/games/overpass_spiral.py,
 * the definition) made into move objects, in the same order.
 *
 * A position lists a few hundred moves; Python spends most of its time walking the groups of
 * touching pieces and handing out one move per (start, landing, last piece).  Here a position is
 * two 64-bit words, each group is walked once, and each move object is asked of Python once
 * (``make(start, landing, last)``) and kept (the listing itself: spiral_steps.h).
 * tests/engine/test_spiral_fast.py checks the lists against ``steps`` on many positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "spiral_steps.h"

typedef struct {
    PyObject_HEAD
    SpiralBoard board;
    int8_t slot[MAX_POINTS][MAX_POINTS];  /* slot[to][last]: last's place among to's neighbours */
    PyObject *make;
    PyObject **moves[MAX_POINTS];          /* moves[start][to * MAX_NEAR + slot], made on demand */
} Spiral;

/* The move of a (start, landing, last piece), made by Python the first time. */
static PyObject *move_of(Spiral *self, int start, int to, int last) {
    if (!self->moves[start]) {
        self->moves[start] = PyMem_Calloc((size_t)self->board.n * MAX_NEAR, sizeof(PyObject *));
        if (!self->moves[start]) return PyErr_NoMemory();
    }
    PyObject **kept = &self->moves[start][to * MAX_NEAR + self->slot[to][last]];
    if (!*kept) *kept = PyObject_CallFunction(self->make, "iii", start, to, last);
    return *kept;
}

static PyObject *Spiral_moves(Spiral *self, PyObject *args) {
    unsigned long long low, high;
    if (!PyArg_ParseTuple(args, "KK", &low, &high)) return NULL;
    Set mask = {{low, high}};
    Codes steps = {NULL, 0, 0};
    PyObject *list = spiral_steps(&self->board, mask, &steps) < 0 ? NULL : PyList_New((Py_ssize_t)steps.len);
    for (size_t i = 0; i < steps.len && list; i++) {
        int code = steps.data[i];
        PyObject *move = move_of(self, step_start(code), step_to(code), step_last(code));
        if (!move) { Py_CLEAR(list); break; }
        Py_INCREF(move);
        PyList_SET_ITEM(list, (Py_ssize_t)i, move);
    }
    PyMem_Free(steps.data);
    return list;
}

static int Spiral_init(Spiral *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"near", "perimeter", "exits", "make", NULL};
    PyObject *near, *perimeter, *exits, *make;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!O!O", names, &PyList_Type, &near, &PyList_Type, &perimeter,
                                     &PyList_Type, &exits, &make))
        return -1;
    if (read_board(&self->board, near, perimeter, exits) < 0) return -1;
    memset(self->slot, 0, sizeof self->slot);
    for (int to = 0; to < self->board.n; to++)
        for (int i = 0; i < self->board.near_count[to]; i++) self->slot[to][self->board.near[to][i]] = (int8_t)i;
    Py_INCREF(make);
    Py_XSETREF(self->make, make);
    return 0;
}

static void Spiral_dealloc(Spiral *self) {
    for (int s = 0; s < MAX_POINTS; s++)
        if (self->moves[s]) {
            for (int i = 0; i < self->board.n * MAX_NEAR; i++) Py_XDECREF(self->moves[s][i]);
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
