"""Everything that goes by email: composing letters, receiving copies, the judge.

``compose`` writes a game's letters and sends them; ``receive`` reads players'
mail back into game files; ``judge`` runs games from a mailbox unattended, with
``answers`` (its replies to mail it cannot use), ``invite`` (join invitations),
``reply`` (a player's answer to the judge's mail) and ``contact`` (addresses).
"""
