"""Games without a referee (local stand-in: the Frog Finder helper owns this file)."""
