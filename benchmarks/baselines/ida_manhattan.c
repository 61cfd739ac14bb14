/* The C baseline of the benchmarks: a plain IDA* with Manhattan distance for the 4x4 puzzle
 * (goal 1 2 ... 15 then the blank), written the way a careful C programmer would, no tricks.
 *
 * fastpuzzle's compiled IDA* is measured against it in the same run (benchmarks/baselines/yardstick.py,
 * bench_optimal.py). Its node counts must equal the manhattan_ida_nodes column of
 * tests/data/random50.tsv, so its conventions are fixed:
 *   - a node is counted when it is generated (the root is not), over every iteration, and the
 *     search stops at the first goal met in the last iteration;
 *   - a node's children are tried with the blank moving down, right, left, up, and only the move
 *     that undoes the one before is skipped;
 *   - a child whose f = g + h is above the bound is counted but not expanded.
 *
 * Build: cc -O3 -o ida_manhattan ida_manhattan.c
 * Input: boards of 16 numbers (row-major, 0 = blank) on standard input, whitespace-separated.
 * Output: one line per board, "length nodes seconds millions-of-nodes-per-second". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CELLS 16
#define SIDE 4
#define NO_CELL (-1)
#define UNBOUNDED 1000000

/* distance[tile][cell]: how far tile is from its home when it stands on cell. */
static int distance[CELLS][CELLS];
/* targets[cell]: the cells the blank can move to from cell, in the order D, R, L, U. */
static int targets[CELLS][4];
static int target_count[CELLS];

static uint64_t generated;
static int smallest_excess; /* the least f seen above the bound in this iteration */

static int tile_at(uint64_t board, int cell) { return (int)((board >> (4 * cell)) & 15); }

/* Depth-first search below a node whose f is within the bound; 1 when the goal was reached. */
static int expand(uint64_t board, int blank, int g, int h, int bound, int came_from) {
    for (int k = 0; k < target_count[blank]; k++) {
        int cell = targets[blank][k];
        if (cell == came_from) continue;
        int tile = tile_at(board, cell);
        uint64_t child = board ^ ((uint64_t)tile << (4 * cell)) ^ ((uint64_t)tile << (4 * blank));
        int child_h = h - distance[tile][cell] + distance[tile][blank];
        int f = g + 1 + child_h;
        generated++;
        if (f > bound) {
            if (f < smallest_excess) smallest_excess = f;
            continue;
        }
        if (child_h == 0) return 1;
        if (expand(child, cell, g + 1, child_h, bound, blank)) return 1;
    }
    return 0;
}

/* The optimal length of board (blank on cell blank, Manhattan distance h). */
static int solve(uint64_t board, int blank, int h) {
    int bound = h;
    if (h == 0) return 0;
    for (;;) {
        smallest_excess = UNBOUNDED;
        if (expand(board, blank, 0, h, bound, NO_CELL)) return bound;
        bound = smallest_excess;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void set_up_tables(void) {
    for (int tile = 1; tile < CELLS; tile++) {
        int home = tile - 1;
        for (int cell = 0; cell < CELLS; cell++)
            distance[tile][cell] = abs(home / SIDE - cell / SIDE) + abs(home % SIDE - cell % SIDE);
    }
    for (int cell = 0; cell < CELLS; cell++) {
        int row = cell / SIDE, column = cell % SIDE, n = 0;
        if (row < SIDE - 1) targets[cell][n++] = cell + SIDE;   /* D */
        if (column < SIDE - 1) targets[cell][n++] = cell + 1;   /* R */
        if (column > 0) targets[cell][n++] = cell - 1;          /* L */
        if (row > 0) targets[cell][n++] = cell - SIDE;          /* U */
        target_count[cell] = n;
    }
}

int main(void) {
    set_up_tables();
    uint64_t all_nodes = 0;
    double all_seconds = 0.0;
    int tiles[CELLS];
    while (1) {
        for (int i = 0; i < CELLS; i++) {
            if (scanf("%d", &tiles[i]) != 1) {
                fprintf(stderr, "total nodes %llu, %.2f s\n", (unsigned long long)all_nodes,
                        all_seconds);
                return 0;
            }
            if (tiles[i] < 0 || tiles[i] >= CELLS) {
                fprintf(stderr, "tile %d out of range\n", tiles[i]);
                return 1;
            }
        }
        uint64_t board = 0;
        int blank = 0, h = 0;
        for (int cell = 0; cell < CELLS; cell++) {
            board |= (uint64_t)tiles[cell] << (4 * cell);
            if (tiles[cell] == 0)
                blank = cell;
            else
                h += distance[tiles[cell]][cell];
        }
        generated = 0;
        double started = now();
        int length = solve(board, blank, h);
        double seconds = now() - started;
        printf("%d %llu %.4f %.1f\n", length, (unsigned long long)generated, seconds,
               seconds > 0 ? (double)generated / seconds / 1e6 : 0.0);
        fflush(stdout);
        all_nodes += generated;
        all_seconds += seconds;
    }
}
