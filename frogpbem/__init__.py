"""frogpbem: hidden-information board games by email, with a signed, auditable referee."""

__version__ = "0.1.0"
