/* Over-Pass's turn moves in C: the board moves and the Center Square rule of
 * engine/games/overpass.py and overpass_centre.py, which stay the definition.
 *
 * Listing an Over-Pass turn means hundreds of moves and a search for the way the Center
 * Square empties; in Python that is several times slower than python-chess lists a chess
 * position.  This module does the same work on byte arrays: ``Core.turn_moves`` returns the
 * very move objects the Python tables hold, or None when nothing can empty the Center Square.
 * tests/engine/test_overpass_fast.py checks it against the Python rules on many positions.
 *
 * Intersections are indices 0..n-1 (the tables' board order, n <= 128); a cell holds 0 when
 * empty, else a colour code 1..MAX_COLOURS.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_POINTS 128
#define MAX_NEAR 8
#define MAX_SLIDES 8  /* both at most MAX_ROW */
#define MAX_COLOURS 8
#define MAX_DEPTH 16
#define MAX_ROW 8
/* More than any position has: an Over-Pass or a Trade per pair, a Slide and an Exit per piece. */
#define MAX_MOVES (MAX_POINTS * MAX_POINTS + MAX_POINTS * (MAX_SLIDES + 2))

enum { OVER_PASS, TRADE, SLIDE, EXIT };

typedef struct { uint64_t w[2]; } Set;

static inline void set_add(Set *s, int i) { s->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline int set_has(const Set *s, int i) { return (int)(s->w[i >> 6] >> (i & 63) & 1); }
static inline int set_meets(const Set *a, const Set *b) { return (a->w[0] & b->w[0]) || (a->w[1] & b->w[1]); }
static inline void set_join(Set *a, const Set *b) { a->w[0] |= b->w[0]; a->w[1] |= b->w[1]; }

typedef struct { uint8_t kind, a, b, cost; } Move;

typedef struct {
    int found;
    int cost;
    Set relies;
} Plan;

typedef struct {
    PyObject_HEAD
    int n, centre;
    int near_count[MAX_POINTS];
    uint8_t near[MAX_POINTS][MAX_NEAR];
    uint8_t perimeter[MAX_POINTS][MAX_POINTS];
    uint8_t is_exit[MAX_POINTS];
    Set exits;
    int slide_count[MAX_POINTS];
    uint8_t slide_end[MAX_POINTS][MAX_SLIDES];
    uint8_t parallel[MAX_POINTS][MAX_POINTS];  /* a < b: a Trade of a and b exists */
    PyObject *over_pass[MAX_POINTS][MAX_POINTS];
    PyObject *slide[MAX_POINTS][MAX_SLIDES];
    PyObject *trade[MAX_POINTS][MAX_POINTS];
    PyObject *exit_move[MAX_POINTS];
} Core;

/* One listing's position and rules, changed in place by the search's moves. */
typedef struct {
    const Core *core;
    uint8_t cells[MAX_POINTS];
    uint8_t mine[MAX_COLOURS + 1];  /* colour code -> the mover may move it off an exit point */
    int turn;                        /* the turn's colour code: the only colour that exits */
    int budget;
    int may_exit;
    int exits_to_win;                /* exits of the turn's colour that win; more than any budget if none can */
    PyObject *bounds;                /* board bytes -> the fewest points a plan can cost (Python int) */
    int error;
} Board;

/* -- moves ------------------------------------------------------------------ */

static inline int movable(const Board *s, int p) {
    int c = s->cells[p];
    return c && (!s->core->is_exit[p] || s->mine[c]);
}

/* The bridges of one listing, colour by colour: the groups of touching pieces a colour may
 * pass over, each with the empty intersections beside it in the order overpass.py's
 * ``bridge_destinations`` finds them (so the moves come in the Python rules' order). */
typedef struct {
    int16_t group_of[MAX_COLOURS + 1][MAX_POINTS];  /* -1 until flooded for that colour */
    int16_t first[MAX_COLOURS + 1][MAX_POINTS + 1];  /* group g's landings: landing[c][first[g]..first[g + 1]) */
    int groups[MAX_COLOURS + 1];
    uint8_t landing[MAX_COLOURS + 1][MAX_POINTS * MAX_NEAR];
} Bridges;

static void bridges_clear(Bridges *b) {
    memset(b->group_of, 0xff, sizeof b->group_of);
    memset(b->groups, 0, sizeof b->groups);
    memset(b->first, 0, sizeof b->first);
}

/* Flood the group of ``first`` (a piece ``colour`` may pass over), depth first as the Python does. */
static int flood(const Board *s, Bridges *b, int colour, int first) {
    const Core *k = s->core;
    const uint8_t *cells = s->cells;
    int g = b->groups[colour]++, count = b->first[colour][g], top = 0;
    uint8_t stack[MAX_POINTS];
    Set beside = {{0, 0}};
    b->group_of[colour][first] = (int16_t)g;
    stack[top++] = (uint8_t)first;
    while (top) {
        int here = stack[--top];
        for (int i = 0; i < k->near_count[here]; i++) {
            int there = k->near[here][i];
            if (b->group_of[colour][there] >= 0 || set_has(&beside, there)) continue;
            if (!cells[there]) {
                set_add(&beside, there);
                b->landing[colour][count++] = (uint8_t)there;
            } else if (cells[there] != colour) {
                b->group_of[colour][there] = (int16_t)g;
                stack[top++] = (uint8_t)there;
            }
        }
    }
    b->first[colour][g + 1] = (int16_t)count;
    return g;
}

/* The empty intersections a bridge from ``start`` reaches (over pieces not of its colour), in the
 * Python rules' order, into ``order``; their count, and the set in ``reach``.  A piece on an exit
 * point keeps to the perimeter and is walked breadth first, alone; the others share their colour's
 * groups. */
static int landings_from(const Board *s, Bridges *b, int start, uint8_t *order, Set *reach) {
    const Core *k = s->core;
    const uint8_t *cells = s->cells;
    int colour = cells[start], count = 0;
    *reach = (Set){{0, 0}};
    if (!k->is_exit[start]) {
        for (int i = 0; i < k->near_count[start]; i++) {
            int first = k->near[start][i], g = b->group_of[colour][first];
            if (g < 0) {
                if (!cells[first] || cells[first] == colour) continue;
                g = flood(s, b, colour, first);
            }
            for (int j = b->first[colour][g]; j < b->first[colour][g + 1]; j++) {
                int there = b->landing[colour][j];
                if (!set_has(reach, there)) { set_add(reach, there); order[count++] = (uint8_t)there; }
            }
        }
        return count;
    }
    uint8_t queue[MAX_POINTS];
    Set seen = {{0, 0}};
    int head = 0, tail = 0;
    set_add(&seen, start);
    queue[tail++] = (uint8_t)start;
    while (head < tail) {
        int here = queue[head++];
        for (int i = 0; i < k->near_count[here]; i++) {
            int there = k->near[here][i];
            if (set_has(&seen, there) || set_has(reach, there) || !k->perimeter[here][there]) continue;
            if (!cells[there]) {
                if (here != start) { set_add(reach, there); order[count++] = (uint8_t)there; }
            } else if (cells[there] != colour) {
                set_add(&seen, there);
                queue[tail++] = (uint8_t)there;
            }
        }
    }
    return count;
}

/* The board moves within the points left (before the Center Square rule) that move the piece on
 * ``piece`` (its own and its Trades; every piece's when it is -1), appended to ``out`` in the order
 * of ``OverPassState.board_moves``. */
static int board_moves(const Board *s, Move *out, int piece) {
    const Core *k = s->core;
    const uint8_t *cells = s->cells;
    int count = 0;
    if (s->budget < 1) return 0;
    Bridges *bridges = PyMem_Malloc(sizeof(Bridges));
    if (!bridges) return -1;
    bridges_clear(bridges);
    for (int p = 0; p < k->n; p++) {
        if (!movable(s, p) || (piece >= 0 && p != piece)) continue;
        if (k->is_exit[p] && s->may_exit && cells[p] == s->turn)
            out[count++] = (Move){EXIT, (uint8_t)p, (uint8_t)p, 1};
        uint8_t order[MAX_POINTS];
        Set reach;
        int landings = landings_from(s, bridges, p, order, &reach);
        for (int i = 0; i < landings; i++) out[count++] = (Move){OVER_PASS, (uint8_t)p, order[i], 1};
        if (s->budget >= 2)
            for (int i = 0; i < k->slide_count[p]; i++) {
                int end = k->slide_end[p][i];
                if (!cells[end] && !set_has(&reach, end)) out[count++] = (Move){SLIDE, (uint8_t)p, (uint8_t)i, 2};
            }
    }
    PyMem_Free(bridges);
    for (int a = 0; a < k->n; a++) {
        if (!cells[a] || k->is_exit[a]) continue;
        for (int b = a + 1; b < k->n; b++)
            if (k->parallel[a][b] && cells[b] && !k->is_exit[b] && cells[b] != cells[a] &&
                (piece < 0 || a == piece || b == piece))
                out[count++] = (Move){TRADE, (uint8_t)a, (uint8_t)b, 1};
    }
    return count;
}

static inline int slide_target(const Core *k, const Move *m) { return k->slide_end[m->a][m->b]; }

/* The intersections a move changes. */
static Set move_points(const Core *k, const Move *m) {
    Set points = {{0, 0}};
    set_add(&points, m->a);
    if (m->kind == SLIDE) set_add(&points, slide_target(k, m));
    else if (m->kind != EXIT) set_add(&points, m->b);
    return points;
}

/* Make a move; returns whether it wins the game. */
static int play(Board *s, const Move *m, uint8_t *undo) {
    uint8_t *cells = s->cells;
    undo[0] = cells[m->a];
    s->budget -= m->cost;
    switch (m->kind) {
    case OVER_PASS: undo[1] = cells[m->b]; cells[m->b] = cells[m->a]; cells[m->a] = 0; return 0;
    case SLIDE: { int end = slide_target(s->core, m); undo[1] = cells[end]; cells[end] = cells[m->a]; cells[m->a] = 0; return 0; }
    case TRADE: undo[1] = cells[m->b]; cells[m->a] = undo[1]; cells[m->b] = undo[0]; return 0;
    default: cells[m->a] = 0; return --s->exits_to_win == 0;
    }
}

static void take_back(Board *s, const Move *m, const uint8_t *undo) {
    uint8_t *cells = s->cells;
    s->budget += m->cost;
    switch (m->kind) {
    case OVER_PASS: cells[m->a] = undo[0]; cells[m->b] = undo[1]; break;
    case SLIDE: cells[m->a] = undo[0]; cells[slide_target(s->core, m)] = undo[1]; break;
    case TRADE: cells[m->a] = undo[0]; cells[m->b] = undo[1]; break;
    default: cells[m->a] = undo[0]; s->exits_to_win++; break;
    }
}

/* A shortest bridge from an Over-Pass's start to its end: its pieces added to ``into``. */
static void add_bridge(const Board *s, int start, int end, Set *into) {
    const Core *k = s->core;
    const uint8_t *cells = s->cells;
    int colour = cells[start], from_exit = k->is_exit[start];
    uint8_t queue[MAX_POINTS];
    int came_from[MAX_POINTS];
    Set seen = {{0, 0}};
    int head = 0, tail = 0;
    set_add(&seen, start);
    queue[tail++] = (uint8_t)start;
    while (head < tail) {
        int here = queue[head++];
        for (int i = 0; i < k->near_count[here]; i++) {
            int there = k->near[here][i];
            if (set_has(&seen, there) || (from_exit && !k->perimeter[here][there])) continue;
            if (!cells[there]) {
                if (here != start && there == end) {
                    for (int p = here; p != start; p = came_from[p]) set_add(into, p);
                    return;
                }
            } else if (cells[there] != colour) {
                set_add(&seen, there);
                came_from[there] = here;
                queue[tail++] = (uint8_t)there;
            }
        }
    }
}

/* What a move needs as it is (overpass.OverPassState.relies_on), checked before the move. */
static Set relies_on(const Board *s, const Move *m) {
    if (m->kind == EXIT) return s->core->exits;
    Set points = move_points(s->core, m);
    if (m->kind == OVER_PASS) add_bridge(s, m->a, m->b, &points);
    return points;
}

/* -- the Center Square rule (overpass_centre) ---------------------------------- */

/* The move off the Center Square now, cheapest first, as a plan; else the region a single
 * move must change to open one (the centre, its spoke ends, the pieces a bridge from it
 * reaches and their neighbours). */
static Plan way_out(const Board *s, Set *region) {
    const Core *k = s->core;
    const uint8_t *cells = s->cells;
    int centre = k->centre, colour = cells[centre];
    uint8_t queue[MAX_POINTS];
    int came_from[MAX_POINTS];
    Set seen = {{0, 0}};
    Plan plan = {0, 0, {{0, 0}}};
    int head = 0, tail = 0;
    set_add(&seen, centre);
    queue[tail++] = (uint8_t)centre;
    while (head < tail) {
        int here = queue[head++];
        for (int i = 0; i < k->near_count[here]; i++) {
            int there = k->near[here][i];
            if (set_has(&seen, there)) continue;
            if (!cells[there]) {
                if (here != centre) {
                    plan.found = 1;
                    plan.cost = 1;
                    set_add(&plan.relies, centre);
                    set_add(&plan.relies, there);
                    for (int p = here; p != centre; p = came_from[p]) set_add(&plan.relies, p);
                    return plan;
                }
            } else if (cells[there] != colour) {
                set_add(&seen, there);
                came_from[there] = here;
                queue[tail++] = (uint8_t)there;
            }
        }
    }
    for (int i = 0; i < k->slide_count[centre]; i++) {
        int end = k->slide_end[centre][i];
        if (!cells[end]) {
            plan.found = 1;
            plan.cost = 2;
            set_add(&plan.relies, centre);
            set_add(&plan.relies, end);
            return plan;
        }
    }
    *region = seen;  /* the centre and the pieces crossed, then their neighbours */
    for (int p = 0; p < k->n; p++)
        if (set_has(&seen, p))
            for (int i = 0; i < k->near_count[p]; i++) set_add(region, k->near[p][i]);
    return plan;
}

static int bound_of(Board *s, PyObject **key) {
    *key = PyBytes_FromStringAndSize((const char *)s->cells, s->core->n);
    if (!*key) { s->error = 1; return 0; }
    PyObject *known = PyDict_GetItemWithError(s->bounds, *key);
    if (!known) { if (PyErr_Occurred()) s->error = 1; return 0; }
    return (int)PyLong_AsLong(known);
}

static void note_bound(Board *s, PyObject *key, int bound) {
    PyObject *value = PyLong_FromLong(bound);
    if (!value || PyDict_SetItem(s->bounds, key, value) < 0) s->error = 1;
    Py_XDECREF(value);
}

static Plan search(Board *s, int limit, int depth);

/* Whether a move is worth trying as an opening within ``limit`` points (overpass_centre._openings):
 * one that leaves a single point for the way out must move a piece in the region. */
static Plan try_openings(Board *s, int limit, const Set *region, int depth) {
    const Core *k = s->core;
    Plan none = {0, 0, {{0, 0}}};
    Move *moves = PyMem_Malloc(sizeof(Move) * MAX_MOVES);
    if (!moves) { PyErr_NoMemory(); s->error = 1; return none; }
    int count = board_moves(s, moves, -1);
    Plan found = none;
    if (count < 0) { PyErr_NoMemory(); s->error = 1; count = 0; }
    for (int pass = 0; pass < 2 && !found.found && !s->error; pass++)
        for (int i = 0; i < count; i++) {
            const Move *m = &moves[i];
            Set points = move_points(k, m);
            int moves_region_piece = set_has(region, m->a) || (m->kind == TRADE && set_has(region, m->b));
            int worth = pass == 0 ? moves_region_piece && m->cost < limit
                                  : !set_meets(region, &points) && m->cost <= limit - 2;
            if (!worth) continue;
            Set needs = relies_on(s, m);
            uint8_t undo[2];
            int wins = play(s, m, undo);
            Plan rest = wins ? none : search(s, limit - m->cost, depth + 1);
            take_back(s, m, undo);
            if (s->error) break;
            if (rest.found) {
                rest.cost += m->cost;
                set_join(&rest.relies, &needs);
                found = rest;
                break;
            }
        }
    PyMem_Free(moves);
    return found;
}

/* A plan for at most ``limit`` points (overpass_centre._search). */
static Plan search(Board *s, int limit, int depth) {
    Plan none = {0, 0, {{0, 0}}};
    PyObject *key;
    int bound = bound_of(s, &key);
    if (s->error || bound > limit || depth > MAX_DEPTH) { Py_XDECREF(key); return none; }
    Set region = {{0, 0}};
    Plan plan = way_out(s, &region);
    if (plan.found) { Py_DECREF(key); return plan.cost <= limit ? plan : none; }
    if (limit >= 2) {
        plan = try_openings(s, limit, &region, depth);
        if (plan.found || s->error) { Py_DECREF(key); return plan; }
    }
    note_bound(s, key, bound > limit + 1 ? bound : limit + 1);
    Py_DECREF(key);
    return none;
}

/* A cheapest plan within ``budget`` points (overpass_centre.clearing_plan). */
static Plan clearing_plan(Board *s, int budget) {
    Plan plan = {0, 0, {{0, 0}}};
    if (!s->cells[s->core->centre]) {
        plan.found = 1;
        set_add(&plan.relies, s->core->centre);
        return plan;
    }
    for (int limit = 1; limit <= budget && !s->error; limit++) {
        plan = search(s, limit, 0);
        if (plan.found) return plan;
    }
    plan.found = 0;
    return plan;
}

/* -- Python ------------------------------------------------------------------ */

static PyObject *move_object(const Core *k, const Move *m) {
    switch (m->kind) {
    case OVER_PASS: return k->over_pass[m->a][m->b];
    case SLIDE: return k->slide[m->a][m->b];
    case TRADE: return k->trade[m->a][m->b];
    default: return k->exit_move[m->a];
    }
}

static PyObject *Core_turn_moves(Core *self, PyObject *args) {
    Py_buffer cells, mine;
    Board s;
    int piece = -1;
    memset(&s, 0, sizeof s);
    if (!PyArg_ParseTuple(args, "y*y*iipiO!|i", &cells, &mine, &s.turn, &s.budget, &s.may_exit, &s.exits_to_win,
                          &PyDict_Type, &s.bounds, &piece))
        return NULL;
    if (cells.len != self->n || mine.len > MAX_COLOURS + 1) {
        PyBuffer_Release(&cells);
        PyBuffer_Release(&mine);
        return PyErr_Format(PyExc_ValueError, "turn_moves: %d cells and at most %d colours expected",
                            self->n, MAX_COLOURS);
    }
    s.core = self;
    memcpy(s.cells, cells.buf, (size_t)self->n);
    memcpy(s.mine, mine.buf, (size_t)mine.len);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&mine);

    Plan plan = clearing_plan(&s, s.budget);
    if (s.error) return NULL;
    if (!plan.found) Py_RETURN_NONE;
    Move *moves = PyMem_Malloc(sizeof(Move) * MAX_MOVES);
    if (!moves) return PyErr_NoMemory();
    int count = board_moves(&s, moves, piece), spare = s.budget - plan.cost;
    PyObject *legal = count < 0 ? PyErr_NoMemory() : PyList_New(0);
    for (int i = 0; legal && i < count; i++) {
        const Move *m = &moves[i];
        Set points = move_points(self, m);
        int keeps = m->cost <= spare && !set_meets(&plan.relies, &points);
        if (!keeps && m->kind != TRADE && m->a == self->centre) keeps = 1;  /* it empties the Center Square */
        if (!keeps) {
            uint8_t undo[2];
            int wins = play(&s, m, undo);
            keeps = wins || clearing_plan(&s, s.budget).found;
            take_back(&s, m, undo);
            if (s.error) { Py_CLEAR(legal); break; }
        }
        if (keeps && PyList_Append(legal, move_object(self, m)) < 0) Py_CLEAR(legal);
    }
    PyMem_Free(moves);
    return legal;
}

static int read_int_lists(PyObject *lists, int n, int max_len, int *counts, uint8_t rows[][MAX_ROW],
                          const char *what) {
    if (!PyList_Check(lists) || PyList_GET_SIZE(lists) != n) {
        PyErr_Format(PyExc_ValueError, "Core: %s must be a list of %d lists", what, n);
        return -1;
    }
    for (int p = 0; p < n; p++) {
        PyObject *row = PyList_GET_ITEM(lists, p);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) > max_len) {
            PyErr_Format(PyExc_ValueError, "Core: %s[%d] must be a list of at most %d indices", what, p, max_len);
            return -1;
        }
        counts[p] = (int)PyList_GET_SIZE(row);
        for (int i = 0; i < counts[p]; i++) {
            long v = PyLong_AsLong(PyList_GET_ITEM(row, i));
            if (v < 0 || v >= n) {
                if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "Core: %s[%d] holds %ld", what, p, v);
                return -1;
            }
            rows[p][i] = (uint8_t)v;
        }
    }
    return 0;
}

static PyObject *grid_item(PyObject *grid, int a, int b) {
    PyObject *row = PyList_GetItem(grid, a);
    return row ? PyList_GetItem(row, b) : NULL;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"centre", "near", "slide_ends", "exits", "perimeter", "parallel",
                            "over_pass", "slide", "trade", "exit_move", NULL};
    PyObject *near, *slide_ends, *exits, *perimeter, *parallel, *over_pass, *slide, *trade, *exit_move;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iO!O!O!O!O!O!O!O!O!", names, &self->centre,
                                     &PyList_Type, &near, &PyList_Type, &slide_ends, &PyList_Type, &exits,
                                     &PyList_Type, &perimeter, &PyList_Type, &parallel, &PyList_Type, &over_pass,
                                     &PyList_Type, &slide, &PyList_Type, &trade, &PyList_Type, &exit_move))
        return -1;
    int n = self->n = (int)PyList_GET_SIZE(near);
    if (n > MAX_POINTS || self->centre < 0 || self->centre >= n) {
        PyErr_Format(PyExc_ValueError, "Core: at most %d intersections and the centre among them", MAX_POINTS);
        return -1;
    }
    static uint8_t rows[MAX_POINTS][MAX_ROW];
    if (read_int_lists(near, n, MAX_NEAR, self->near_count, rows, "near") < 0) return -1;
    for (int p = 0; p < n; p++) memcpy(self->near[p], rows[p], MAX_NEAR);
    if (read_int_lists(slide_ends, n, MAX_SLIDES, self->slide_count, rows, "slide_ends") < 0) return -1;
    for (int p = 0; p < n; p++) memcpy(self->slide_end[p], rows[p], MAX_SLIDES);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(exits); i++) {
        long p = PyLong_AsLong(PyList_GET_ITEM(exits, i));
        if (p < 0 || p >= n) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Core: bad exit"); return -1; }
        self->is_exit[p] = 1;
        set_add(&self->exits, (int)p);
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            PyObject *along = grid_item(perimeter, a, b), *twin = grid_item(parallel, a, b);
            PyObject *op = grid_item(over_pass, a, b), *tr = grid_item(trade, a, b);
            if (!along || !twin || !op || !tr) return -1;
            self->perimeter[a][b] = (uint8_t)PyObject_IsTrue(along);
            self->parallel[a][b] = (uint8_t)(a < b && PyObject_IsTrue(twin));
            Py_INCREF(op);
            self->over_pass[a][b] = op;
            Py_INCREF(tr);
            self->trade[a][b] = tr;
        }
    for (int p = 0; p < n; p++) {
        for (int i = 0; i < self->slide_count[p]; i++) {
            PyObject *move = grid_item(slide, p, i);
            if (!move) return -1;
            Py_INCREF(move);
            self->slide[p][i] = move;
        }
        PyObject *move = PyList_GetItem(exit_move, p);
        if (!move) return -1;
        Py_INCREF(move);
        self->exit_move[p] = move;
    }
    return 0;
}

static void Core_dealloc(Core *self) {
    for (int a = 0; a < self->n; a++) {
        for (int b = 0; b < self->n; b++) {
            Py_XDECREF(self->over_pass[a][b]);
            Py_XDECREF(self->trade[a][b]);
        }
        for (int i = 0; i < self->slide_count[a]; i++) Py_XDECREF(self->slide[a][i]);
        Py_XDECREF(self->exit_move[a]);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Core_methods[] = {
    {"turn_moves", (PyCFunction)Core_turn_moves, METH_VARARGS,
     "turn_moves(cells, mine, turn, budget, may_exit, exits_to_win, bounds, piece=-1): the board moves that keep "
     "the Center Square emptiable (only those moving the piece on index piece, when given), or None when nothing "
     "within the budget empties it."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.games._overpass_fast.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Over-Pass board's rule tables and move objects, for listing turn moves.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_overpass_fast", "Over-Pass's turn moves in C (overpass.py is the definition).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__overpass_fast(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
