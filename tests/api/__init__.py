"""Tests of the public behaviour: what a user calls and sees, from boards to the command line."""
