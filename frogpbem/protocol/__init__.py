"""The protocol between referee and seats, above the file model and below the commands.

Sealed secrets (seal and commit, open and check), who may read what, the
loaded game and its replay, the referee's memory of what it signed.
"""
