"""Tournaments: pairings, the signed tournament file, standings counted from audited games.

:mod:`~frogpbem.tournament.pairing` is pure (no I/O, no crypto): who meets whom in
each round. The rest reads and writes the director's signed tournament file and
counts only games that audit.
"""
