"""The game file: strict YAML, schemas, signatures and the hash chain.

This layer knows nothing of any game's rules.
"""
