# IDA* with four lookups a node (the tables on the board, its reflection, its dual and the
# dual's reflection; see _pdbgroups.pxd and fastpuzzle/pdb/dual.py) and BPMX, included by
# _idastar.pyx (packed boards) and _wide_pdb.pyx (a byte a cell). Its values are not consistent,
# so it is a driver of its own beside the engine's expand(): a child's h less one lifts its
# parent's and back (BPMX), which expand's judge-before-descending has no room for. It is
# compiled once in each module over that module's Search and Node and the engine's Mode, enter
# and board hooks (tile_on, moved_board, unmove_board, save_board, load_board: see
# _engine.pxi), and these inline helpers of the host:
#   manhattan_change(s, tile, cell, blank)  that move's change of the Manhattan distance
#   group_entry_of(group, index)            a group's table entry for a sparse index
# Its state is the pattern databases' (s.heur.pdb, _h_pdb.pxi). A node of its frontier keeps its
# h as the parent left it (node.h), and in node.heur.dual (DualNode, _h_pdb.pxi) its Manhattan
# distance and sums (md, plain, mirrored, dual, dmirrored), its groups' and dual boards' state.


from libc.stdint cimport int32_t, uint8_t, uint64_t

from fastpuzzle._core._engine cimport (
    FORBIDDEN,
    FOUND,
    MACHINE_START,
    OVER_BOUND,
    SEARCHED,
    STOPPED,
)
from fastpuzzle._core._pdbgroups cimport (
    Duals,
    DualStep,
    GroupMove,
    Patterns,
    apply_dual,
    dual_change,
    dual_step,
    entry_address,
    fill_dual,
    fill_patterns,
    four_h,
    mirrored_child_index,
    move_mirrored,
    move_plain,
    pattern_h,
    plain_child_index,
    read_entry,
    restore_patterns,
    save_patterns,
    unapply_dual,
    unmove_mirrored,
    unmove_plain,
)
from fastpuzzle._core._prefetch cimport prefetch


cdef void fill_dual_node(const Search* s, Node* node, BoardWord board, int blank, int depth,
                         int h, int md, int plain, int mirrored, int dual, int dmirrored,
                         int32_t state) noexcept nogil:
    # ``node`` becomes the node searched at ``depth`` (its path is s's), with its h as its
    # parent left it.
    cdef const Patterns* pat = &s.heur.pdb.pat
    cdef const Duals* duals = &s.heur.pdb.duals
    cdef DualNode* snap = &node.heur.dual
    cdef int i, which
    node.blank = blank
    node.depth = depth
    node.state = state
    node.h = h
    snap.md = md
    snap.plain = plain
    snap.mirrored = mirrored
    snap.dual = dual
    snap.dmirrored = dmirrored
    for i in range(depth):
        node.path[i] = s.path[i]
    save_board(s, node, board)
    save_patterns(pat, snap.index, snap.value, snap.mindex, snap.mvalue)
    for which in range(2):
        for i in range(pat.n_groups):
            snap.dindex[which][i] = duals.side[which].index[i]
            snap.dvalue[which][i] = duals.side[which].value[i]


cdef int save_dual_node(Search* s, BoardWord board, int blank, int depth, int h, int md,
                        int plain, int mirrored, int dual, int dmirrored,
                        int32_t state) noexcept nogil:
    # Collect mode at the cut: the node joins the frontier. SEARCHED, or STOPPED when the
    # frontier cannot grow.
    cdef Node* node = frontier_slot(s)
    if node == NULL:
        return STOPPED
    fill_dual_node(s, node, board, blank, depth, h, md, plain, mirrored, dual, dmirrored, state)
    return SEARCHED


cdef int dual_node(Search* s, const Node* node, Mode* mode) except -2 nogil:
    # descend() with dual lookups: s takes the node's path, board and state, and dfs_dual
    # searches it.
    cdef Patterns* pat = &s.heur.pdb.pat
    cdef Duals* duals = &s.heur.pdb.duals
    cdef const DualNode* snap = &node.heur.dual
    cdef BoardWord board
    cdef int i, which, h_out
    for i in range(node.depth):
        s.path[i] = node.path[i]
    board = load_board(s, node)
    restore_patterns(pat, snap.index, snap.value, snap.mindex, snap.mvalue)
    for which in range(2):
        for i in range(pat.n_groups):
            duals.side[which].index[i] = snap.dindex[which][i]
            duals.side[which].value[i] = snap.dvalue[which][i]
    return dfs_dual(s, board, node.blank, node.depth, node.h, snap.md, snap.plain,
                    snap.mirrored, snap.dual, snap.dmirrored, node.state, &h_out, mode)


cdef void dual_root(Search* s, Node* root, BoardWord board, const uint8_t* tile_at, int n,
                    int blank, int md) noexcept nogil:
    # The start as dfs_dual's node (its Manhattan distance ``md``), s's groups and dual boards
    # filled from the whole board.
    cdef Patterns* pat = &s.heur.pdb.pat
    cdef Duals* duals = &s.heur.pdb.duals
    cdef int plain, mirrored, dual, dmirrored
    plain = fill_patterns(pat, tile_at, n, 0)
    mirrored = fill_patterns(pat, tile_at, n, 1) if pat.mirror else 0
    dual = fill_dual(duals, pat, 0, tile_at, n, blank)
    dmirrored = fill_dual(duals, pat, 1, tile_at, n, blank) if duals.mirror else 0
    fill_dual_node(s, root, board, blank, 0, four_h(md, plain, mirrored, dual, dmirrored), md,
                   plain, mirrored, dual, dmirrored, MACHINE_START)


cdef int dfs_dual(Search* s, BoardWord board, int blank, int depth, int h, int md, int plain,
                  int mirrored, int dual, int dmirrored, int32_t state, int* h_out,
                  Mode* mode) except -2 nogil:
    # The pattern-database search with dual lookups, which are not consistent, and BPMX to pass
    # their values on: h arrives as the parent left it (at least its own four-sum value), and
    # leaves in h_out as this node's search raised it. Every child's h
    # less one lifts this node's (cutting it, past the bound, before any child is entered);
    # this node's less one lifts each child's; a child's search that comes back with its h
    # raised past this node's plus one lifts this node's and may cut the siblings left.
    # See tests/dual_reference.py (ida_bpmx), which counts the same nodes.
    cdef Patterns* pat = &s.heur.pdb.pat
    cdef Duals* duals = &s.heur.pdb.duals
    cdef int f = depth + h
    cdef int k, cell, tile, grp, mgrp, r, best, child_h
    cdef int32_t kid_state[4]
    cdef int kid_md[4]
    cdef int kid_plain[4]
    cdef int kid_mirrored[4]
    cdef int kid_dual[4]
    cdef int kid_dmirrored[4]
    cdef int kid_h[4]
    cdef bint full[4]
    cdef uint64_t new_index[4]
    cdef uint64_t new_entry[4]
    cdef uint64_t new_mindex[4]
    cdef uint64_t new_mentry[4]
    cdef DualStep steps[4][2]
    cdef GroupMove saved, msaved, dsaved, dmsaved
    h_out[0] = h
    if Mode is Collect:
        if depth == s.collector.cut:
            # The frontier keeps the node with the h its parent left it.
            if f > s.bound:
                if f < s.next_bound:
                    s.next_bound = f
                return SEARCHED
            if md == 0:
                return FOUND
            return save_dual_node(s, board, blank, depth, h, md, plain, mirrored, dual,
                                  dmirrored, state)
    r = enter(s, md, f)
    if r != SEARCHED:
        return SEARCHED if r == OVER_BOUND else r
    # Each child is judged in stages, each stage's table reads prefetched together:
    # its plain sum, then (if that keeps it within the bound) its reflected sum, then its two
    # dual sums. A child cut at a stage keeps the h it had there.
    for k in range(s.n_moves[blank]):
        kid_state[k] = child_state(s, state, blank, k)
        if kid_state[k] == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        tile = tile_on(s, board, cell)
        grp = pat.group_of[tile]
        if grp >= 0:
            new_index[k] = plain_child_index(pat, grp, tile, blank, cell)
            new_entry[k] = group_entry_of(&pat.groups[grp], new_index[k])
            prefetch(entry_address(&pat.groups[grp], new_entry[k]))
    for k in range(s.n_moves[blank]):
        if kid_state[k] == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        tile = tile_on(s, board, cell)
        kid_md[k] = md + manhattan_change(s, tile, cell, blank)
        kid_plain[k] = plain
        kid_mirrored[k] = mirrored
        grp = pat.group_of[tile]
        if grp >= 0:
            kid_plain[k] += read_entry(&pat.groups[grp], new_entry[k]) - pat.value[grp]
        kid_h[k] = kid_md[k] + 2 * kid_plain[k]
        full[k] = depth + 1 + kid_h[k] <= s.bound
        mgrp = pat.mgroup_of[tile] if pat.mirror else -1
        if full[k] and mgrp >= 0:
            new_mindex[k] = mirrored_child_index(pat, mgrp, tile, blank, cell)
            new_mentry[k] = group_entry_of(&pat.groups[mgrp], new_mindex[k])
            prefetch(entry_address(&pat.groups[mgrp], new_mentry[k]))
        s.counters.generated += 1
    for k in range(s.n_moves[blank]):
        if kid_state[k] == FORBIDDEN or not full[k]:
            continue
        cell = s.move_cell[blank][k]
        tile = tile_on(s, board, cell)
        mgrp = pat.mgroup_of[tile] if pat.mirror else -1
        if mgrp >= 0:
            kid_mirrored[k] += (read_entry(&pat.groups[mgrp], new_mentry[k])
                                - pat.mvalue[mgrp])
        kid_h[k] = pattern_h(kid_md[k], kid_plain[k], kid_mirrored[k])
        full[k] = depth + 1 + kid_h[k] <= s.bound
        if full[k]:
            dual_step(duals, pat, 0, blank, cell, tile, &steps[k][0])
            if duals.mirror:
                dual_step(duals, pat, 1, blank, cell, tile, &steps[k][1])
    best = -1
    for k in range(s.n_moves[blank]):
        if kid_state[k] == FORBIDDEN:
            continue
        if full[k]:
            kid_dual[k] = dual + dual_change(&steps[k][0])
            kid_dmirrored[k] = dmirrored + dual_change(&steps[k][1]) if duals.mirror else 0
            kid_h[k] = four_h(kid_md[k], kid_plain[k], kid_mirrored[k], kid_dual[k],
                              kid_dmirrored[k])
        if kid_h[k] > best:
            best = kid_h[k]
    # BPMX: the best child's h less one is a lower bound here too.
    if best - 1 > h:
        h = best - 1
        h_out[0] = h
        if depth + h > s.bound:
            if depth + h < s.next_bound:
                s.next_bound = depth + h
            return SEARCHED
    for k in range(s.n_moves[blank]):
        if kid_state[k] == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        # Work stealing (_team.pxi): a child handed to another thread is its search. BPMX stays
        # admissible when siblings are searched apart (a thread only lifts h by what it has
        # seen), so the lengths stay optimal; the stage loops above count every child
        # generated, so a thread that takes work counts its guide's siblings again.
        if skip_child(s, depth, s.move_dir[blank][k], mode):
            continue
        child_h = kid_h[k] if kid_h[k] >= h - 1 else h - 1
        if depth + 1 + child_h > s.bound:
            if depth + 1 + child_h < s.next_bound:
                s.next_bound = depth + 1 + child_h
            continue
        # Only a child judged in full gets here: one cut by its regular h stays cut.
        tile = tile_on(s, board, cell)
        grp = pat.group_of[tile]
        if grp >= 0:
            move_plain(pat, grp, new_index[k], new_entry[k], &saved)
        mgrp = pat.mgroup_of[tile] if pat.mirror else -1
        if mgrp >= 0:
            move_mirrored(pat, mgrp, new_mindex[k], new_mentry[k], &msaved)
        apply_dual(duals, 0, &steps[k][0], &dsaved)
        if duals.mirror:
            apply_dual(duals, 1, &steps[k][1], &dmsaved)
        if Mode is Collect:
            s.path[depth] = s.move_dir[blank][k]
        r = dfs_dual(s, moved_board(s, board, blank, cell, tile), cell, depth + 1, child_h,
                     kid_md[k], kid_plain[k], kid_mirrored[k], kid_dual[k], kid_dmirrored[k],
                     kid_state[k], &child_h, mode)
        unmove_board(s, blank, cell, tile)
        if grp >= 0:
            unmove_plain(pat, grp, &saved)
        if mgrp >= 0:
            unmove_mirrored(pat, mgrp, &msaved)
        unapply_dual(duals, 0, &steps[k][0], &dsaved)
        if duals.mirror:
            unapply_dual(duals, 1, &steps[k][1], &dmsaved)
        if r:
            # The path is written only on the way back from the goal.
            s.path[depth] = s.move_dir[blank][k]
            return r
        # BPMX back up: the child's search may have raised its h.
        if child_h - 1 > h:
            h = child_h - 1
            h_out[0] = h
            if depth + h > s.bound:
                if depth + h < s.next_bound:
                    s.next_bound = depth + h
                return SEARCHED
    return SEARCHED
