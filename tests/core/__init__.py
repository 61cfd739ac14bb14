"""Tests of the compiled kernels and the tables they read: exact node counts, identical
tables, admissibility against outside distances."""
